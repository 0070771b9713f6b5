package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.client.output.OutputRegistry;
import io.nbench.client.output.OutputSettings;
import io.nbench.files.Directories;
import io.nbench.process.ChildJvm;
import io.nbench.process.ChildProcesses;
import io.nbench.report.AtomicFiles;
import io.nbench.report.TextReport;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultReader;
import io.nbench.report.merge.ResultMerge;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code nbench client --forks N}: the same client, one fresh JVM after another (same Java, class path
 * and JVM flags), each running this client's {@link ClientSpec} (read from a file: {@code client --plan
 * FILE}) with its own {@code --out}, printing its own report and writing its result document; then one summary whose
 * intervals cover every measured iteration of every fork. Iterations inside one JVM share its JIT, GC and
 * allocation history and are not independent samples; forks are closer to it.
 */
final class ForkRunner {

    /** How long a fork may take to print and write its partial results after SIGTERM. */
    private static final Duration FORK_GRACE = Duration.ofSeconds(15);

    private final CommandSpec spec;
    /** What each fork runs: this client once. */
    private final ClientSpec plan;
    private final OutputSettings output;
    private final int forks;
    private final boolean nameFiles;
    private final ChildClientListener listener;
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /**
     * {@code nameFiles}: print the result documents kept (not when nbench run keeps them in its own directory);
     * {@code listener} (may be null): hears each fork's document.
     */
    ForkRunner(CommandSpec spec, ClientSpec plan, int forks, boolean nameFiles, ChildClientListener listener) {
        this.spec = spec;
        this.plan = plan;
        this.output = plan.output().files();
        this.forks = forks;
        this.nameFiles = nameFiles;
        this.listener = listener;
    }

    int run(PrintWriter out, PrintWriter err) {
        if (OutputRegistry.refusedWithForks(output)) {
            throw new ParameterException(spec.commandLine(), "--forks prints text and keeps each fork's result "
                    + "document (with --out): leave out " + and(OutputRegistry.optionsNotWithForks())
                    + ", or run without --forks");
        }
        if (output.out() != null) {
            String problem = checkForkFiles();
            if (problem != null) {
                err.println("nbench client: " + problem);
                return ExitCode.COULD_NOT_RUN;
            }
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("nbench-forks");
        } catch (IOException e) {
            err.println("nbench client: cannot create a temporary directory for the forks: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        // SIGINT/SIGTERM: no further fork; the running one is stopped by its own hook and writes what it has.
        Interruption interruption = Interruption.install("nbench-forks-interrupt", FORK_GRACE.plusSeconds(5),
                () -> stopRequested.set(true), () -> {
                    out.flush();
                    Directories.deleteQuietly(dir);
                });
        try {
            return runForks(dir, out, err);
        } finally {
            Directories.deleteQuietly(dir);
            interruption.close();
        }
    }

    /** {@code a, b and c}. */
    private static String and(List<String> items) {
        int n = items.size();
        return n <= 1 ? String.join("", items) : String.join(", ", items.subList(0, n - 1)) + " and " + items.get(n - 1);
    }

    private int runForks(Path dir, PrintWriter out, PrintWriter err) {
        int worst = ExitCode.OK;
        List<ResultFile> results = new ArrayList<>();
        List<ResultMerge.Input> documents = new ArrayList<>();
        List<Path> kept = new ArrayList<>();
        for (int k = 1; k <= forks && !stopRequested.get(); k++) {
            Path file = output.out() != null ? ForkFiles.forkFile(output.out(), k) : dir.resolve("fork-" + k + ".json");
            out.println("=== fork " + k + "/" + forks + " ===");
            out.flush();
            int code = runFork(plan.withResultFiles(file, output.hdrLog(), output.hgrm(), !nameFiles),
                    dir.resolve("fork-" + k + ".plan.json"), out, err);
            worst = ExitCode.first(worst, code);
            if (Files.isRegularFile(file)) {
                kept.add(file);
                try {
                    // The fork's result crosses into this JVM here, once: its document, read by the one reader.
                    ResultDoc document = ResultFile.document(file, ResultReader.DEFAULT_MAX_BYTES);
                    results.add(ResultFile.of(file, document));
                    documents.add(new ResultMerge.Input(file.getFileName().toString(), document));
                    if (listener != null) {
                        listener.forked(k, file, document);
                    }
                } catch (ResultFile.Unreadable e) {
                    err.println("nbench client: fork " + k + ": " + e.getMessage());
                    worst = ExitCode.first(worst, ExitCode.COULD_NOT_RUN);
                }
            }
            if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE || code == ExitCode.COULD_NOT_RUN) {
                break;
            }
        }
        summarize(results, out);
        boolean joined = false;
        if (output.out() != null && !documents.isEmpty()) {
            int written = ForkFiles.writeJoined(output.out(), forks, documents, err);
            worst = ExitCode.first(worst, written);
            joined = written == ExitCode.OK; // a join refused writes no --out: the line below must not name it
        }
        if (output.out() != null && nameFiles && !kept.isEmpty()) {
            out.println("Result documents: " + (joined ? output.out() + " (every fork), " : "") + kept.get(0)
                    + (kept.size() > 1 ? " ... " + kept.get(kept.size() - 1) : ""));
        }
        out.flush();
        return worst;
    }

    /**
     * Each fork writes its document beside {@code --out} ({@code r.fork1.json} ...), so {@code --out} must name
     * a file: a device or FIFO there would put the fork files in /dev or beside the pipe. Checked before any
     * fork starts, with the reason the fork would give.
     */
    private String checkForkFiles() {
        if (Files.exists(output.out()) && !Files.isRegularFile(output.out())) {
            throw new ParameterException(spec.commandLine(), "--forks writes one document per fork beside --out "
                    + "(r.fork1.json ...), but " + output.out() + " is not a regular file: give a file name, or leave "
                    + "out --out");
        }
        for (int k = 1; k <= forks; k++) {
            Path f = ForkFiles.forkFile(output.out(), k);
            try {
                AtomicFiles.checkWritable(f);
            } catch (IOException e) {
                return "cannot write --out " + f + ": " + AtomicFiles.describe(e);
            }
        }
        return null;
    }

    /** Copies lines from a child's stream to a writer; on a new thread unless {@code threadName} is null. */
    private static Thread copy(InputStream in, PrintWriter to, String threadName) {
        Runnable r = () -> {
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (to) {
                        to.println(line);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                // the fork is gone
            }
        };
        Thread t = new Thread(r, threadName != null ? threadName : "nbench-fork-stdout");
        t.setDaemon(true);
        if (threadName != null) {
            t.start();
        }
        return t;
    }

    /** Runs one fork, which reads its plan from {@code planFile}; its exit code. */
    private int runFork(ClientSpec fork, Path planFile, PrintWriter out, PrintWriter err) {
        Process p = null;
        Thread killer = null;
        try {
            ChildClient.write(fork, planFile);
            // The fork removes the plan files' directory if this JVM is killed (its stdin: see EndWithParent).
            p = ChildJvm.builder(true, List.of("client", "--plan", planFile.toString()), planFile.getParent()).start();
            killer = ChildProcesses.stopWhenThisJvmEnds(p, Duration.ZERO, FORK_GRACE, "nbench-fork-stop");
            if (killer == null) {
                return ExitCode.INTERRUPTED; // this JVM is ending; the fork has been stopped
            }
            // The fork's output goes through this command's writers (not straight to the inherited file
            // descriptors), so whoever captures them, a test or a script, sees it.
            Thread errors = copy(p.getErrorStream(), err, "nbench-fork-stderr");
            copy(p.getInputStream(), out, null).run();
            errors.join(5_000);
            return p.waitFor();
        } catch (IOException e) {
            err.println("nbench client: cannot start a fork: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return ExitCode.INTERRUPTED;
        } finally {
            if (killer != null) {
                ChildProcesses.forget(killer);
            }
        }
    }

    /** One block per combination over the measured iterations of every fork, as the text summary words it. */
    private void summarize(List<ResultFile> results, PrintWriter out) {
        Map<String, List<ResultFile.IterationData>> byCombination = new LinkedHashMap<>();
        for (ResultFile r : results) {
            for (ResultFile.CombinationData c : r.combinations()) {
                byCombination.computeIfAbsent(c.name(), k -> new ArrayList<>()).addAll(c.iterations());
            }
        }
        TextReport.forksSummary(out, results.size(), forks, byCombination, plan.output().percentiles());
    }
}
