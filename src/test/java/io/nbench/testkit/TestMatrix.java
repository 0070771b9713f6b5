package io.nbench.testkit;

/**
 * Whether this test run is the exhaustive one ({@code mvn test -Pmatrix}, system property
 * {@code nbench.matrix=full}) or the every-commit one. The every-commit run keeps each property covered once on
 * every transport; the exhaustive run adds the cases that only repeat it with another shape or more rounds,
 * so CI stays within its time.
 */
public final class TestMatrix {

    /** True in {@code mvn test -Pmatrix}. */
    public static final boolean FULL = "full".equals(System.getProperty("nbench.matrix"));

    private TestMatrix() {
    }

    /** {@code every} in the exhaustive run, {@code quick} in the every-commit run. */
    public static int rounds(int quick, int every) {
        return FULL ? every : quick;
    }
}
