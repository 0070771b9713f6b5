package io.nbench.cli;

import io.nbench.client.ExitCode;
import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.AtomicFiles;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.Environment;
import io.nbench.report.Tty;
import io.nbench.report.compare.CompareFormats;
import io.nbench.report.compare.CompareTable;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.hdr.IntervalLogMerge;
import io.nbench.report.hdr.PercentileFiles;
import io.nbench.report.html.HtmlReport;
import io.nbench.report.json.ResultDocument;
import io.nbench.transport.Transport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The files of {@code nbench run}. Each server's client writes into a scratch directory ({@code SERVER.json},
 * with {@code --forks} {@code SERVER.forkK.json}, {@code SERVER.hlog}); after the last server, run keeps what
 * the user asked for: documents copied to {@code --results-dir}, the logs joined into {@code --hdr-log} with
 * the server in each tag, and the comparison over every server (every fork's iterations). {@code --hgrm}
 * goes straight to the user's path, one file per server and combination. Every file is checked before any
 * server starts and written through {@link AtomicFiles}; the scratch directory is removed by {@link #close()},
 * also on SIGINT, and nothing printed names a file in it.
 */
final class RunFiles implements AutoCloseable {

    /** A file or directory run must write is not writable: exit 1 with this one-line message. */
    static final class CannotWrite extends Exception {
        private static final long serialVersionUID = 1L;

        CannotWrite(String message) {
            super(message);
        }
    }

    /** One server's files in the scratch directory: its documents, and its interval logs in the order written. */
    private record Measured(Transport server, List<Path> documents, List<Path> hdrLogs) {
    }

    private final Path scratch;
    private final Path resultsDir;
    /** {@code run --report}: the HTML page of every server's results, or null. */
    private final Path report;
    private final Path hdrLog;
    private final String hgrm;
    private final int servers;
    private final List<Measured> measured = new ArrayList<>();

    private RunFiles(Path scratch, Path resultsDir, Path report, Path hdrLog, String hgrm, int servers) {
        this.report = report;
        this.scratch = scratch;
        this.resultsDir = resultsDir;
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
        checkFileOptions(spec, forks, hdrLog, hgrm, chosen.size());
        String problem = checkWritable(hdrLog, resultsDir, chosen);
        if (problem == null && report != null) {
            try {
                AtomicFiles.checkWritable(report); // before any server starts, like every other file
            } catch (IOException e) {
                problem = "cannot write --report " + report + ": " + AtomicFiles.describe(e);
            }
        }
        if (problem != null) {
            throw new CannotWrite(problem);
        }
        try {
            return new RunFiles(Files.createTempDirectory("nbench-run"), resultsDir, report, hdrLog, hgrm, chosen.size());
        } catch (IOException e) {
            throw new CannotWrite("cannot create a temporary directory: " + e.getMessage());
        }
    }

    /** {@code plan} with the files of {@code server}'s client: its document and logs in the scratch directory. */
    ChildClientPlan filesOf(Transport server, ChildClientPlan plan) {
        return plan.with("--out", scratch.resolve(server.name() + ".json"))
                .with("--run-owns-files", true)
                .with("--hdr-log", hdrLog == null ? null : scratch.resolve(server.name() + ".hlog"))
                .with("--hgrm", hgrm == null ? null : hgrmFor(hgrm, server, servers));
    }

    /**
     * {@code plan} with the files of {@code server}'s client in round {@code round} (negative: warmup round
     * -round, which keeps no log): its document and log in the scratch directory. {@code --hgrm} is written
     * once every round is in ({@link #writeHgrm}).
     */
    ChildClientPlan roundFilesOf(Transport server, int round, ChildClientPlan plan) {
        return plan.with("--out", roundDocument(server, round))
                .with("--run-owns-files", true)
                .with("--hdr-log", hdrLog == null || round < 0 ? null : roundLog(server, round))
                .with("--hgrm", null);
    }

    /** The document {@code server}'s client wrote in round {@code round} (negative: warmup round -round). */
    Path roundDocument(Transport server, int round) {
        return scratch.resolve(server.name() + (round < 0 ? ".warmup" + -round : ".round" + round) + ".json");
    }

    private Path roundLog(Transport server, int round) {
        return scratch.resolve(server.name() + ".round" + round + ".hlog");
    }

    /** Where {@code server}'s one document goes, joined from its rounds; {@link #measured} finds it there. */
    Path document(Transport server) {
        return scratch.resolve(server.name() + ".json");
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

    /** {@code server}'s client has ended: what it wrote is kept for {@link #finish}. */
    void measured(Transport server) {
        List<Path> logs = new ArrayList<>(List.of(scratch.resolve(server.name() + ".hlog")));
        for (int round = 1; Files.isRegularFile(roundLog(server, round)); round++) {
            logs.add(roundLog(server, round));
        }
        measured.add(new Measured(server, documents(scratch, server), logs));
    }

    /**
     * After the last server: each server's documents copied to {@code --results-dir}, the interval logs joined
     * into {@code --hdr-log}, and the comparison. Returns 1 if a file could not be written or read.
     */
    int finish(PrintWriter out, PrintWriter err) {
        int code = ExitCode.OK;
        List<Path> kept = new ArrayList<>();
        List<ResultFile> results = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        List<HtmlReport.Source> pages = new ArrayList<>();
        for (Measured m : measured) {
            List<ResultFile> documents = new ArrayList<>();
            Path keptLast = null;
            for (Path d : m.documents()) {
                try {
                    documents.add(ResultFile.read(d));
                    if (report != null) {
                        pages.add(new HtmlReport.Source("server " + m.server().name() + (resultsDir != null
                                ? ", " + resultsDir.resolve(d.getFileName()) : ""), ResultDocument.MAPPER.readTree(d.toFile())));
                    }
                } catch (IOException e) {
                    err.println("nbench run: cannot read " + d + ": " + AtomicFiles.describe(e));
                    code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                } catch (ResultFile.Unreadable e) {
                    err.println("nbench run: " + e.getMessage());
                    code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                }
                if (resultsDir != null) {
                    Path keep = resultsDir.resolve(d.getFileName());
                    try {
                        AtomicFiles.write(keep, Files.readAllBytes(d));
                        kept.add(keep);
                        keptLast = keep;
                    } catch (IOException e) {
                        err.println("nbench run: cannot write --results-dir file " + keep + ": " + AtomicFiles.describe(e));
                        code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                    }
                }
            }
            if (!documents.isEmpty()) {
                results.add(joined(m.server(), documents, keptLast));
                compared.add(m.server().name());
            }
        }
        if (hdrLog != null) {
            List<Map.Entry<String, Path>> logs = new ArrayList<>();
            measured.forEach(m -> m.hdrLogs().stream().filter(Files::isRegularFile)
                    .forEach(log -> logs.add(Map.entry(m.server().name(), log))));
            if (!logs.isEmpty()) {
                try {
                    IntervalLogMerge.write(hdrLog, logs);
                } catch (IOException e) {
                    err.println("nbench run: cannot write --hdr-log " + hdrLog + ": " + AtomicFiles.describe(e));
                    code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                }
            }
        }
        if (results.size() >= 2) {
            out.println("=== comparison of the servers (A = " + compared.get(0) + ") ===");
            // The table fits 120 columns: a longer line (the legend) wraps, its continuation indented.
            java.io.StringWriter table = new java.io.StringWriter();
            CompareTable.print(new PrintWriter(table), results, Comparison.compare(results));
            table.toString().lines().forEach(line -> {
                if (Tty.columns(line) <= Tty.TEXT_COLUMNS) {
                    out.println(line);
                } else {
                    Tty.wrap(line, Tty.TEXT_COLUMNS, "", "    ").forEach(out::println);
                }
            });
        } else if (results.size() == 1) {
            out.println("One server measured: nothing to compare.");
        }
        if (report != null && !pages.isEmpty()) {
            JsonNode comparison = results.size() >= 2
                    ? CompareFormats.document(results, Comparison.compare(results), List.of(), ExitCode.OK) : null;
            try {
                HtmlReport.write(report, pages, comparison, Environment.version());
                out.println("Report: " + report);
            } catch (IOException e) {
                err.println("nbench run: cannot write --report " + report + ": " + AtomicFiles.describe(e));
                code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
            }
        }
        if (!kept.isEmpty()) {
            out.println("Result documents: " + kept.stream().map(Path::toString).collect(Collectors.joining(", ")));
        }
        err.flush();
        return code;
    }

    /**
     * One server's documents as one result for the comparison: with {@code --forks} every fork's measured
     * iterations, like the client's FORKS SUMMARY. Named by the kept file, or by the server when none is kept.
     */
    private static ResultFile joined(Transport server, List<ResultFile> documents, Path keptLast) {
        Path name = Path.of("server " + server.name() + (documents.size() > 1 ? " (" + documents.size() + " forks)" : "")
                + (documents.size() == 1 && keptLast != null ? ", " + keptLast : ""));
        Map<String, ResultFile.CombinationData> byName = new LinkedHashMap<>();
        for (ResultFile f : documents) {
            for (ResultFile.CombinationData c : clientNamed(f.combinations())) {
                ResultFile.CombinationData sum = byName.get(c.name());
                List<ResultFile.IterationData> its = new ArrayList<>(sum == null ? List.of() : sum.iterations());
                its.addAll(c.iterations());
                byName.put(c.name(), new ResultFile.CombinationData(c.name(), c.keys(), its));
            }
        }
        return new ResultFile(name, List.copyOf(byName.values()));
    }

    /**
     * The combinations as run shows them: the client's transport, which the documents call {@code impl}, is
     * named {@code client} (each column of the table is a server; every row would otherwise read the client's).
     */
    private static List<ResultFile.CombinationData> clientNamed(List<ResultFile.CombinationData> combinations) {
        List<ResultFile.CombinationData> renamed = new ArrayList<>();
        for (ResultFile.CombinationData c : combinations) {
            Map<String, String> keys = new LinkedHashMap<>();
            c.keys().forEach((k, v) -> keys.put(k.equals("impl") ? "client" : k, v));
            String name = c.name().replaceAll("(^|,)impl=", "$1client=");
            renamed.add(new ResultFile.CombinationData(name, keys, c.iterations()));
        }
        return renamed;
    }

    /** What the client wrote for {@code server}: SERVER.json, or with --forks SERVER.fork1.json ... in order. */
    private static List<Path> documents(Path scratch, Transport server) {
        Path single = scratch.resolve(server.name() + ".json");
        if (Files.isRegularFile(single)) {
            return List.of(single);
        }
        Pattern fork = Pattern.compile(Pattern.quote(server.name()) + "\\.fork(\\d+)\\.json");
        try (Stream<Path> files = Files.list(scratch)) {
            return files.filter(f -> fork.matcher(f.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(f -> forkNumber(fork, f))).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static int forkNumber(Pattern fork, Path f) {
        Matcher m = fork.matcher(f.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** --hgrm for one server: {combination} becomes server-SERVER_{combination}, one file per server and combination. */
    private static String hgrmFor(String template, Transport server, int servers) {
        return servers == 1 ? template : template.replace(PercentileFiles.PLACEHOLDER,
                "server-" + server.name() + "_" + PercentileFiles.PLACEHOLDER);
    }

    /** Usage errors of the file options, before any server starts. */
    private static void checkFileOptions(CommandSpec spec, int forks, Path hdrLog, String hgrm, int servers) {
        if (hgrm != null && servers > 1 && !hgrm.contains(PercentileFiles.PLACEHOLDER)) {
            throw new ParameterException(spec.commandLine(), "--hgrm " + hgrm + " names one file but nbench run "
                    + "measures " + servers + " servers: put " + PercentileFiles.PLACEHOLDER + " in it, e.g. lat-"
                    + PercentileFiles.PLACEHOLDER + ".hgrm (one file per server and combination)");
        }
        if ((hdrLog != null || hgrm != null) && forks > 1) {
            throw new ParameterException(spec.commandLine(), "--forks keeps each fork's result document only: leave "
                    + "out --hdr-log and --hgrm, or run without --forks");
        }
    }

    /** The directory and files run will write, checked before any server starts; the problem, or null. */
    private static String checkWritable(Path hdrLog, Path resultsDir, List<Transport> chosen) {
        Path current = hdrLog;
        String option = "--hdr-log";
        try {
            if (hdrLog != null) {
                AtomicFiles.checkWritable(hdrLog);
            }
            if (resultsDir != null) {
                option = "--results-dir";
                current = resultsDir;
                Files.createDirectories(resultsDir);
                for (Transport t : chosen) {
                    current = resultsDir.resolve(t.name() + ".json");
                    AtomicFiles.checkWritable(current);
                }
            }
            return null;
        } catch (IOException e) {
            return "cannot write " + option + " " + current + ": " + AtomicFiles.describe(e);
        }
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
            Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(file, token + "\n");
        return file;
    }

    /** Removes the scratch directory; safe to call twice (the signal handler may too). */
    @Override
    public void close() {
        deleteQuietly(scratch);
    }

    static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
