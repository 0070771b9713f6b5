package io.nbench.cli;

import io.nbench.files.BoundedFile;
import io.nbench.protocol.http.HttpClientCodec;
import io.nbench.server.ServerPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The HTTP request body {@code --body} or {@code --body-file} gives, checked against the other options: read
 * once, when the client's plan is built (a fork or {@code run}'s client reads the same file again, as its
 * options carry the path), and sent unchanged by every connection.
 */
final class RequestBody {

    /**
     * The largest body: what nbench server accepts by default ({@code --max-frame}) and the frame the client
     * sizes its buffers for; every connection's request holds a copy.
     */
    static final int MAX = ServerPlan.DEFAULT_MAX_FRAME;

    private RequestBody() {
    }

    /**
     * The body's bytes, or null when neither option gives one. Refused: both options, either with an explicit
     * {@code --size}, an empty body, a file that cannot be read or is over {@link #MAX}, and {@code --size} on a
     * method that sends no body of that size (a GET), where it used to be ignored without a word.
     *
     * @param method    the request method, upper case
     * @param sizeGiven whether {@code --size} was on the command line
     */
    static byte[] of(CommandSpec spec, String method, String body, Path file, boolean sizeGiven) {
        if (body != null && file != null) {
            throw usage(spec, "--body and --body-file both give the request body: give one of them");
        }
        String option = body != null ? "--body" : "--body-file";
        if (body == null && file == null) {
            if (sizeGiven && !HttpClientCodec.sizedBody(method)) {
                throw usage(spec, "--size gives a body only with --method POST, PUT or PATCH; a " + method + " sends "
                        + "none: to send a body with it give --body-file FILE or --body STRING, else leave --size out");
            }
            return null;
        }
        if (sizeGiven) {
            throw usage(spec, option + " gives the request body, whose length is its own: leave --size out");
        }
        byte[] bytes = body != null ? body.getBytes(StandardCharsets.UTF_8) : read(spec, file);
        if (bytes.length == 0) {
            throw usage(spec, body != null ? "--body is empty: give the bytes to send, or leave it out"
                    : "--body-file " + file + " is empty: give a file holding the body, or leave it out");
        }
        if (bytes.length > MAX) {
            throw tooLarge(spec, "--body of", bytes.length, "a shorter one");
        }
        return bytes;
    }

    private static byte[] read(CommandSpec spec, Path file) {
        try {
            if (Files.isDirectory(file)) {
                throw unreadable(spec, file, "a directory");
            }
            // At most MAX bytes and one more: a large file is refused before it is read, a pipe or a device
            // (/dev/zero, whose size says 0) once past the limit.
            return BoundedFile.read(file, MAX);
        } catch (BoundedFile.TooLarge e) {
            if (e.size() >= 0) {
                throw tooLarge(spec, "--body-file " + file + " holds", e.size(), "a smaller file");
            }
            throw usage(spec, "--body-file " + file + " " + e.beyond("a request body may have (nbench server's "
                    + "default --max-frame)") + ": give a smaller file");
        } catch (NoSuchFileException e) {
            throw unreadable(spec, file, "no such file");
        } catch (AccessDeniedException e) {
            throw unreadable(spec, file, "permission denied");
        } catch (IOException e) {
            throw unreadable(spec, file, e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getMessage().toLowerCase(Locale.ROOT));
        }
    }

    private static ParameterException unreadable(CommandSpec spec, Path file, String why) {
        return usage(spec, "--body-file " + file + " cannot be read (" + why + "): give a readable file");
    }

    private static ParameterException tooLarge(CommandSpec spec, String what, long bytes, String fix) {
        return usage(spec, what + " " + bytes + " bytes, more than the " + MAX + " (" + MAX / (1024 * 1024)
                + " MiB) a request body may have (nbench server's default --max-frame): give " + fix);
    }

    private static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
