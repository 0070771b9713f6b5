package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.report.AtomicFiles;
import io.nbench.report.json.ResultDocWriter;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.merge.ForksJoin;
import io.nbench.report.merge.ResultMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** The result files of {@code client --forks N --out r.json}: each fork's beside it, and their join at it. */
final class ForkFiles {

    private ForkFiles() {
    }

    /** Fork {@code k}'s document: {@code r.fork1.json} beside {@code r.json}. */
    static Path forkFile(Path out, int k) {
        String name = out.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return out.resolveSibling(stem + ".fork" + k + ".json");
    }

    /** The forks' documents joined ({@link ForksJoin}: one after another) at {@code --out}; 1 if it cannot be. */
    static int writeJoined(Path out, int forks, List<ResultMerge.Input> documents, PrintWriter err) {
        try {
            String text = ResultDocument.pretty(ResultDocWriter.document(ForksJoin.join(documents, forks, out.toString()))) + "\n";
            AtomicFiles.write(out, text.getBytes(StandardCharsets.UTF_8));
            return ExitCode.OK;
        } catch (ResultMerge.Refused | ResultMerge.Overflow e) {
            err.println("nbench client: cannot join the forks' documents into --out " + out + ": " + e.getMessage());
        } catch (IOException e) {
            err.println("nbench client: cannot write --out " + out + ": " + AtomicFiles.describe(e));
        }
        return ExitCode.COULD_NOT_RUN;
    }
}
