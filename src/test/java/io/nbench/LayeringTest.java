package io.nbench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering the architecture document states, checked on the compiled classes (ArchUnit): transports
 * depend on the plugin contract, its support code, the protocol, units and their own library only; nothing
 * outside {@code transport/} depends on a transport; the client library ({@code client/}) and the server library
 * ({@code server/}) depend neither on the command line nor on picocli, the server neither on the client nor its
 * engine ({@code load/}); the top-level packages have no cycle. And in the
 * sources: no code outside {@code transport/} names a transport (a name in a string would be a
 * transport-specific branch the type check cannot see).
 */
class LayeringTest {

    private static final String TRANSPORT = "io.nbench.transport";
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.nbench");

    /** io.nbench.transport.netty, .mina, ...: every subpackage of transport but support. */
    private static final DescribedPredicate<JavaClass> IN_A_TRANSPORT = DescribedPredicate.describe("a transport implementation",
            c -> c.getPackageName().startsWith(TRANSPORT + ".") && !c.getPackageName().startsWith(TRANSPORT + ".support"));

    @Test
    void transportsDependOnTheContractAndTheirOwnLibraryOnly() {
        // Every transport package the registry holds (a new transport is checked without editing this test).
        Map<String, String> packages = new TreeMap<>(); // transport package -> a neighbour it builds on, or itself
        for (Transport t : TransportRegistry.load().all()) {
            String own = t.getClass().getPackageName();
            // vthreads is the blocking transport on virtual threads: the package of the transport it
            // extends is its one allowed neighbour.
            String base = t.getClass().getSuperclass().getPackageName();
            packages.merge(own, base.startsWith(TRANSPORT + ".") && !base.startsWith(TRANSPORT + ".support") ? base : own,
                    (a, b) -> a.equals(own) ? b : a);
        }
        assertTrue(packages.size() >= 5, "the registry's transports live in packages: " + packages);
        for (Map.Entry<String, String> e : packages.entrySet()) {
            classes().that().resideInAPackage(e.getKey() + "..")
                    .should().onlyDependOnClassesThat().resideInAnyPackage(TRANSPORT, TRANSPORT + ".support..",
                            e.getKey() + "..", e.getValue() + "..", "io.nbench.protocol..", "io.nbench.units..",
                            "java..", "javax..", "sun.misc..", "jdk.internal.misc..", "io.netty..", "org.apache.mina..",
                            "org.slf4j..", "")
                    .because("a transport only moves bytes: the engine owns timing and statistics")
                    .check(MAIN);
        }
    }

    @Test
    void nothingOutsideTransportDependsOnATransport() {
        noClasses().that().resideOutsideOfPackage(TRANSPORT + "..")
                .should().dependOnClassesThat(IN_A_TRANSPORT)
                .because("the engine, the CLI and the outputs reach transports through TransportRegistry only")
                .check(MAIN);
    }

    @Test
    void theContractAndItsSupportDependOnNoTransport() {
        noClasses().that().resideInAnyPackage(TRANSPORT, TRANSPORT + ".support..")
                .should().dependOnClassesThat(IN_A_TRANSPORT)
                .check(MAIN);
    }

    @Test
    void theClientLibraryKnowsNoCommandLine() {
        noClasses().that().resideInAPackage("io.nbench.client..")
                .should().dependOnClassesThat().resideInAnyPackage("io.nbench.cli..", "picocli..")
                .because("the client run is a library call: the picocli commands parse, then call it")
                .check(MAIN);
    }

    @Test
    void theServerLibraryKnowsNoCommandLineNorClient() {
        noClasses().that().resideInAPackage("io.nbench.server..")
                .should().dependOnClassesThat().resideInAnyPackage("io.nbench.cli..", "picocli..", "io.nbench.client..",
                        "io.nbench.load..")
                .because("a server is a library object (ServerPlan, BenchServer): the picocli command parses, then "
                        + "starts it; the client's engine is none of its business")
                .check(MAIN);
    }

    @Test
    void theServerLibraryWritesNoClientReport() {
        noClasses().that().resideInAPackage("io.nbench.server..")
                .should().dependOnClassesThat().resideInAnyPackage("io.nbench.report..")
                .because("the server's figures are its own (server.metrics); the helpers both sides use live below "
                        + "both (units, stats)")
                .check(MAIN);
    }

    @Test
    void protocolCodecsDependOnNeitherTransportsNorCommandLineNorLoad() {
        noClasses().that().resideInAPackage("io.nbench.protocol..")
                .should().dependOnClassesThat().resideInAnyPackage(TRANSPORT + "..", "io.nbench.cli..", "picocli..",
                        "io.nbench.load..", "io.nbench.client..", "io.nbench.server..")
                .because("a protocol is bytes in, bytes out: every transport, client and server uses its codecs, so "
                        + "they can use none of them (WireBytes is how a codec reads a transport's buffer)")
                .check(MAIN);
    }

    /**
     * docs/architecture.md: protocol depends on nothing of nbench's but itself, capacity on nothing of nbench's;
     * the rule above names the layers a codec must not reach, this one every other package.
     */
    @Test
    void protocolAndCapacityStandAlone() {
        for (String alone : List.of("io.nbench.protocol", "io.nbench.capacity")) {
            noClasses().that().resideInAPackage(alone + "..")
                    .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.nbench..")
                            .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(alone + ".."))))
                    .because("docs/architecture.md's layering: every layer above uses it, so it uses none of them")
                    .check(MAIN);
        }
    }

    @Test
    void theReportsWritersKnowNoClientRun() {
        noClasses().that().resideInAPackage("io.nbench.report..")
                .should().dependOnClassesThat().resideInAnyPackage("io.nbench.client..", "io.nbench.cli..")
                .because("the client library writes its results through report (documents, text, CSV); report "
                        + "writes what it is given and never calls back up")
                .check(MAIN);
    }

    @Test
    void theMonitorsWireDependsOnNeitherHalf() {
        noClasses().that().resideInAPackage("io.nbench.monitor..")
                .should().dependOnClassesThat().resideInAnyPackage("io.nbench.server..", "io.nbench.client..",
                        "io.nbench.cli..", "io.nbench.report..")
                .because("the protocol and token are shared: the server half is server.monitor, the client half "
                        + "client.monitor")
                .check(MAIN);
    }

    @Test
    void topLevelPackagesHaveNoCycle() {
        slices().matching("io.nbench.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void noCodeOutsideTransportNamesATransport() throws IOException {
        List<String> names = TransportRegistry.load().names();
        List<String> found = new ArrayList<>();
        Path root = Path.of("src", "main", "java", "io", "nbench");
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.startsWith(root.resolve("transport"))).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String code = lines.get(i).strip();
                    if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                        continue; // documentation may name a transport
                    }
                    for (String name : names) {
                        if (code.contains("\"" + name + "\"")) {
                            found.add(f + ":" + (i + 1) + ": " + code);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), found, "a transport named outside transport/: use TransportRegistry (its DEFAULT, get(name))");
    }
}
