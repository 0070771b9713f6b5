package io.nbench.process;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of an nbench child JVM ({@code nbench run}'s servers, {@code --forks}' clients): the same
 * java and class path as this JVM, native access granted as the jar's manifest grants it with {@code -jar}
 * (without it JDK 22+ warns on stderr when Netty loads its native transport), then {@code Main} and
 * nbench's arguments. The one place such a command is built; {@link #builder} starts it as a child that ends
 * with this JVM however this one ends ({@link EndWithParent}).
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * A builder of the child {@link #command}: its stdin a pipe from this JVM (the default), its environment
     * telling it to end when this JVM does and to remove {@code scratch} then (this JVM's temporary directory,
     * which a killed JVM cannot remove itself; null: none). In the environment, not a {@code -D} flag: a client
     * reports its JVM flags, and this is nbench's own business.
     */
    public static ProcessBuilder builder(boolean inheritFlags, List<String> args, Path scratch) {
        ProcessBuilder builder = new ProcessBuilder(command(inheritFlags, args));
        builder.environment().put(EndWithParent.ENV, scratch == null ? "" : scratch.toAbsolutePath().toString());
        return builder;
    }

    /**
     * @param inheritFlags pass this JVM's flags on (a fork repeats the same client, heap and all); a server
     *                     child gets the JVM's defaults instead
     * @param args         nbench's arguments, e.g. {@code server --port 0}
     */
    public static List<String> command(boolean inheritFlags, List<String> args) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java));
        List<String> flags = inheritFlags ? ManagementFactory.getRuntimeMXBean().getInputArguments() : List.of();
        command.addAll(flags);
        if (flags.stream().noneMatch(f -> f.startsWith("--enable-native-access"))) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.nbench.cli.Main"));
        command.addAll(args);
        return command;
    }
}
