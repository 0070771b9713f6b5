package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.files.Directories;
import io.nbench.report.AtomicFiles;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.hdr.PercentileFiles;
import io.nbench.report.json.ResultDoc;
import io.nbench.transport.Transport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The files of {@code nbench run}. Each server's client writes into a scratch directory ({@code SERVER.json},
 * with {@code --forks} {@code SERVER.forkK.json}, {@code SERVER.hlog}) and hands run its results
 * ({@link ChildClientListener}); after the last server, run keeps what the user asked for ({@link RunResults}):
 * documents in {@code --results-dir}, the logs joined into {@code --hdr-log} with the server in each tag, and
 * the comparison over every server (every fork's iterations). {@code --hgrm} goes straight to the user's path,
 * one file per server and combination. Every file is checked before any server starts
 * ({@link RunFileChecks}) and written through {@link AtomicFiles}; the scratch directory is removed by
 * {@link #close()}, also on SIGINT, and nothing printed names a file in it.
 */
final class RunFiles implements AutoCloseable {

    /** A file or directory run must write is not writable: exit 1 with this one-line message. */
    static final class CannotWrite extends Exception {
        private static final long serialVersionUID = 1L;

        CannotWrite(String message) {
            super(message);
        }
    }

    /**
     * One result document of a server, as its client handed it over: its file name in {@code --results-dir}
     * ({@code SERVER.json}, {@code SERVER.forkK.json}), the document, and the file the client wrote it to
     * (kept byte for byte), or null when run built it (a server's rounds joined).
     */
    record Document(String name, ResultDoc document, Path written) {
    }

    /** One server's documents, and its interval logs in the order written. */
    record Measured(Transport server, List<Document> documents, List<Path> hdrLogs) {
    }

    private final Path scratch;
    private final RunResults results;
    private final Path hdrLog;
    private final String hgrm;
    private final int servers;
    private final List<Measured> measured = new ArrayList<>();

    private RunFiles(Path scratch, RunResults results, Path hdrLog, String hgrm, int servers) {
        this.scratch = scratch;
        this.results = results;
        this.hdrLog = hdrLog;
        this.hgrm = hgrm;
        this.servers = servers;
    }

    /**
     * Takes the client's {@code --hdr-log} and {@code --hgrm} (each server's client gets its own), checks every
     * file, creates the scratch directory. Usage errors throw ParameterException.
     *
     * @param forks the client's {@code --forks}
     */
    static RunFiles prepare(CommandSpec spec, Path hdrLog, String hgrm, int forks, Path resultsDir, Path report,
                            List<Transport> chosen) throws CannotWrite {
        RunFileChecks.check(spec, forks, hdrLog, hgrm, resultsDir, report, chosen);
        try {
            return new RunFiles(Files.createTempDirectory("nbench-run"), new RunResults(resultsDir, report, hdrLog),
                    hdrLog, hgrm, chosen.size());
        } catch (IOException e) {
            throw new CannotWrite("cannot create a temporary directory: " + e.getMessage());
        }
    }

    /** {@code plan} with the files of {@code server}'s client: its document and logs in the scratch directory. */
    ClientSpec filesOf(Transport server, ClientSpec plan) {
        return plan.withResultFiles(documentOf(server),
                hdrLog == null ? null : scratch.resolve(server.name() + ".hlog"),
                hgrm == null ? null : hgrmFor(hgrm, server, servers), true);
    }

    /** Where {@code server}'s client in one piece writes its document ({@code --forks}: beside it, one per fork). */
    Path documentOf(Transport server) {
        return scratch.resolve(server.name() + ".json");
    }

    /**
     * {@code plan} with the files of {@code server}'s client in round {@code round} (negative: warmup round
     * -round, which keeps no log): its document and log in the scratch directory. {@code --hgrm} is written
     * once every round is in ({@link #writeHgrm}).
     */
    ClientSpec roundFilesOf(Transport server, int round, ClientSpec plan) {
        Path document = scratch.resolve(server.name() + (round < 0 ? ".warmup" + -round : ".round" + round) + ".json");
        return plan.withResultFiles(document, hdrLog == null || round < 0 ? null : roundLog(server, round), null, true);
    }

    private Path roundLog(Transport server, int round) {
        return scratch.resolve(server.name() + ".round" + round + ".hlog");
    }

    /** {@code --hgrm} of a server measured in rounds: each combination's distribution over every round. */
    int writeHgrm(Transport server, SweepResult joined, PrintWriter err) {
        if (hgrm == null) {
            return ExitCode.OK;
        }
        PercentileFiles files = new PercentileFiles(hgrmFor(hgrm, server, servers), joined.combinations().size());
        int code = ExitCode.OK;
        for (CombinationResult c : joined.combinations()) {
            try {
                files.write(c.combination(), c.run().summary().merged());
            } catch (IOException e) {
                err.println("nbench run: cannot write --hgrm " + files.pathFor(c.combination()) + ": "
                        + AtomicFiles.describe(e));
                code = ExitCode.COULD_NOT_RUN;
            }
        }
        return code;
    }

    /** {@code server}'s client has ended and handed over {@code documents}: kept for {@link #finish}. */
    void measured(Transport server, List<Document> documents) {
        List<Path> logs = new ArrayList<>(List.of(scratch.resolve(server.name() + ".hlog")));
        for (int round = 1; Files.isRegularFile(roundLog(server, round)); round++) {
            logs.add(roundLog(server, round));
        }
        measured.add(new Measured(server, List.copyOf(documents), logs));
    }

    /**
     * After the last server: each server's documents kept in {@code --results-dir}, the interval logs joined
     * into {@code --hdr-log}, and the comparison. Returns 1 if a file could not be written or read.
     */
    int finish(PrintWriter out, PrintWriter err) {
        return results.finish(measured, out, err);
    }

    /** --hgrm for one server: {combination} becomes server-SERVER_{combination}, one file per server and combination. */
    private static String hgrmFor(String template, Transport server, int servers) {
        return servers == 1 ? template : template.replace(PercentileFiles.PLACEHOLDER,
                "server-" + server.name() + "_" + PercentileFiles.PLACEHOLDER);
    }

    /**
     * The file run's clients read a child server's monitor token from ({@code --monitor-token-file}): in the
     * scratch directory, readable by this user only, so the token is on no command line (ps shows those) and
     * reaches forked clients too. One file per server: every server runs until its last round.
     */
    Path monitorTokenFile(Transport server, String token) throws IOException {
        Path file = scratch.resolve(server.name() + ".monitor-token");
        Files.deleteIfExists(file);
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(file, token + "\n");
        return file;
    }

    /** The scratch directory: run's child servers remove it if run is killed (SIGKILL runs no {@link #close}). */
    Path scratch() {
        return scratch;
    }

    /** Removes the scratch directory; safe to call twice (the signal handler may too). */
    @Override
    public void close() {
        Directories.deleteQuietly(scratch);
    }

}
