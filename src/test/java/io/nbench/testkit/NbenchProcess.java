package io.nbench.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code nbench ARGS} as a user runs it: a child JVM started by {@code /bin/sh} (so a test can set the umask
 * first) running nbench's real {@code Main} on this build's class path, its output in files.
 */
public final class NbenchProcess {

    /**
     * How long a child nbench may take before a test calls it hung. Only a hang detector: the children's work is
     * bounded in messages, and on a busy machine (a CPU hog beside the suite, as in CI) starting JVMs alone takes
     * several times as long as on a quiet one, so no test asserts on how long a child took.
     */
    public static final long HANG_MINUTES = 5;

    private NbenchProcess() {
    }

    /** Stops {@code p} and every process it started (a test that failed half-way leaves nothing behind). */
    public static void destroyTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /** What a finished child printed and returned. */
    public record Result(int exit, String out, String err) {
        public String all() {
            return out + err;
        }
    }

    /**
     * The command that starts nbench's {@code Main} in a child JVM on this build's class path, as the jar's
     * manifest would (native access enabled, so JDK 24+ prints no warning): {@code java [jvmFlags] -cp ...
     * io.nbench.cli.Main}; the caller appends nbench's arguments.
     */
    public static List<String> command(List<String> jvmFlags) {
        return command(jvmFlags, "io.nbench.cli.Main");
    }

    /** As {@link #command(List)} for another main class on this build's class path (a test's own child JVM). */
    public static List<String> command(List<String> jvmFlags, String mainClass) {
        return command(jvmFlags, mainClass, List.of());
    }

    /**
     * As {@link #command(List, String)} with {@code extraClassPath} after this build's class path: a directory
     * of the test classes' resources holding a registry line ({@code META-INF/services}) only that child reads.
     */
    public static List<String> command(List<String> jvmFlags, String mainClass, List<Path> extraClassPath) {
        StringBuilder classPath = new StringBuilder(System.getProperty("java.class.path"));
        for (Path p : extraClassPath) {
            classPath.append(File.pathSeparator).append(p);
        }
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:+IgnoreUnrecognizedVMOptions"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", classPath.toString(), mainClass));
        return command;
    }

    /** {@link #command} as one line for a shell, each word single-quoted. */
    public static String shellCommand() {
        StringBuilder line = new StringBuilder();
        for (String word : command(List.of())) {
            line.append(line.length() == 0 ? "" : " ").append('\'').append(word.replace("'", "'\\''")).append('\'');
        }
        return line.toString();
    }

    /** Runs {@code nbench args} in {@code dir} under {@code umask} (e.g. "022"), waiting at most {@link #HANG_MINUTES}. */
    public static Result run(Path dir, String umask, String... args) throws IOException, InterruptedException {
        return run(dir, umask, List.of(), args);
    }

    /** {@link #run(Path, String, String...)} in a JVM started with {@code jvmFlags} (e.g. a small young generation). */
    public static Result run(Path dir, String umask, List<String> jvmFlags, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "umask " + umask + " && exec \"$@\"", "sh"));
        command.addAll(command(jvmFlags));
        command.addAll(List.of(args));
        return run(dir, command);
    }

    /** Runs {@code command} in {@code dir} with its output in files, waiting at most {@link #HANG_MINUTES}. */
    public static Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("nbench-out", ".txt");
        Path err = Files.createTempFile("nbench-err", ".txt");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(HANG_MINUTES, TimeUnit.MINUTES)) {
                destroyTree(p);
                throw new AssertionError(String.join(" ", command) + " did not end");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
