package io.nbench.cli;

import io.nbench.client.ClientSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * A client that nbench starts itself ({@code nbench run}'s, in this JVM; each {@code --forks} fork), described by
 * one typed {@link ClientSpec}: the parsed client's options mapped onto it once ({@link #settingsOf}, each
 * option group its own part), adjusted by its typed {@code with...} methods, handed to a fork as a file
 * ({@link ClientPlanFile}, {@code nbench client --plan FILE}, hidden), and set back on a client command's fields
 * to run ({@link #set}), so that the client checks and runs them as it does a command line's and its result
 * document records them as its options, under their names. No option is looked up by its name on the way.
 */
final class ChildClient {

    private ChildClient() {
    }

    /**
     * A parsed client's settings; a value that does not parse is a usage error, as the client would report it.
     *
     * @param arguments the command line the user gave, recorded in the result document
     */
    static ClientSpec settingsOf(ClientCommand client, List<String> arguments) {
        // Options that belong to a capacity search are refused without one, before their values are parsed.
        client.capacity.check(client.spec, client.load, client.output.thresholds);
        return new ClientSpec(arguments, client.transport.clientSettings(), client.load.settings(),
                client.http.settings(), client.tls.settings(), client.output.clientSettings(client.spec),
                client.serverStats.settings(),
                client.capacity.clientSettings(client.spec).withRateSweep(client.sweep.rateSweep), client.startAt,
                client.allowInJvm, client.runOwnsFiles, client.server);
    }

    /** Sets every option of {@code client} to {@code settings}, and the command line its document records. */
    static void set(ClientCommand client, ClientSpec settings) {
        client.transport.set(settings.transport());
        client.load.set(settings.load());
        client.http.set(settings.http());
        client.tls.set(settings.tls());
        client.output.set(settings.output());
        client.serverStats.set(settings.serverStats());
        client.capacity.set(settings.capacity());
        client.sweep.rateSweep = settings.capacity().rateSweep();
        client.startAt = settings.startAt();
        client.allowInJvm = settings.allowInJvm();
        client.runOwnsFiles = settings.runOwnsFiles();
        client.server = settings.server();
        client.output.givenArguments = settings.arguments();
    }

    static void write(ClientSpec settings, Path file) throws IOException {
        ClientPlanFile.write(settings, file);
    }

    /**
     * Sets the client's options to the plan {@code --plan} names (a fork's); false, with the reason printed,
     * when it cannot be used.
     */
    static boolean applyFile(ClientCommand client, PrintWriter err) {
        if (client.spec.commandLine().getParseResult().matchedOptions().size() > 1) {
            throw new CommandLine.ParameterException(client.spec.commandLine(),
                    "--plan gives every option: leave the others out");
        }
        try {
            set(client, ClientPlanFile.read(client.planFile));
            return true;
        } catch (ClientPlanFile.Unreadable e) {
            err.println("nbench client: " + e.getMessage());
            return false;
        }
    }

    /**
     * Runs {@code nbench client} with these settings in this JVM and returns its exit code; {@code listener} (may
     * be null) hears what it measured (not after a usage error). Nothing is parsed: the settings are set on a
     * client command's fields, which build its {@link io.nbench.client.ClientPlan} and name its options in the
     * result document, and the client runs as a method call ({@link ClientCommand#measure}).
     */
    static int execute(ClientSpec settings, PrintWriter out, PrintWriter err, ChildClientListener listener) {
        CommandLine cl = Main.commandLine(out, err).getSubcommands().get("client");
        ClientCommand client = cl.getCommand();
        set(client, settings);
        client.listener = listener;
        return Main.callWithoutParsing(cl, client::measure);
    }
}
