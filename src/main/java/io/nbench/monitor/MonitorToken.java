package io.nbench.monitor;

import io.nbench.files.BoundedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The monitor's shared secret. It never comes from the command line, where {@code ps} shows it: from
 * {@code --monitor-token-file} (which wins, being the more explicit), else the environment variable
 * {@value #ENV}, else (server only) generated at random and printed once at start. Its {@link #toString}
 * never shows it, so that no log line can leak it by accident.
 */
public final class MonitorToken {

    public static final String ENV = "NBENCH_MONITOR_TOKEN";
    /** Leaves room for "auth " within the monitor's line limit. */
    static final int MAX_LENGTH = 256;
    /** The most read of a token file: its first line is the token, the rest is ignored but read. */
    static final int MAX_FILE_BYTES = 64 << 10;

    private final String value;
    private final String source;
    private final byte[] digest;

    private MonitorToken(String value, String source) {
        this.value = value;
        this.source = source;
        this.digest = sha256(value);
    }

    /** A bad token file or variable: the message names it and the fix. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** From the file, else the environment; null when neither is given. */
    public static MonitorToken from(Path file, Map<String, String> env) throws Invalid {
        if (file != null) {
            String text;
            try {
                text = new String(BoundedFile.read(file, MAX_FILE_BYTES), StandardCharsets.UTF_8);
            } catch (BoundedFile.TooLarge e) {
                throw new Invalid("--monitor-token-file " + file + " " + e.beyond("nbench reads of a token file")
                        + ": give a file holding the token on its first line");
            } catch (NoSuchFileException e) {
                throw new Invalid("--monitor-token-file " + file + " does not exist: write the token into it "
                        + "(e.g. head -c 24 /dev/urandom | base64 > " + file + ")");
            } catch (IOException e) {
                throw new Invalid("--monitor-token-file " + file + " cannot be read (" + e.getMessage()
                        + "): check its permissions");
            }
            String line = text.lines().findFirst().orElse("").strip();
            return new MonitorToken(check(line, "--monitor-token-file " + file), "--monitor-token-file");
        }
        String fromEnv = env.get(ENV);
        if (fromEnv != null) {
            return new MonitorToken(check(fromEnv.strip(), ENV), ENV);
        }
        return null;
    }

    /**
     * One line naming the problem and the fix when group or other users may read {@code file} (as ssh says of
     * a private key), else null; null too where the file system has no POSIX permissions. A warning, not a
     * refusal: the token guards the server's figures and {@code reset}, not an account, and a file shared
     * with a group on purpose (a team's CI user) must not stop a benchmark.
     */
    public static String exposure(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            if (!p.contains(PosixFilePermission.GROUP_READ) && !p.contains(PosixFilePermission.OTHERS_READ)) {
                return null;
            }
            return "--monitor-token-file " + file + " can be read by other users (" + PosixFilePermissions.toString(p)
                    + "): anyone on this machine may use the monitor; make it private with chmod 600 " + file;
        } catch (IOException | UnsupportedOperationException e) {
            return null; // no POSIX permissions to judge (or the file went away: reading it said so already)
        }
    }

    /** A token typed at a prompt. */
    public static MonitorToken typed(String text) throws Invalid {
        return new MonitorToken(check(text.strip(), "the token typed"), "the prompt");
    }

    /** 24 random bytes as 48 hex digits. */
    public static MonitorToken generate() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return new MonitorToken(HexFormat.of().formatHex(b), "generated");
    }

    private static String check(String token, String where) throws Invalid {
        if (token.isEmpty()) {
            throw new Invalid(where + " holds no token: put the token on its first line");
        }
        if (token.length() > MAX_LENGTH) {
            throw new Invalid(where + " holds a token of " + token.length() + " characters: use at most " + MAX_LENGTH);
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c <= ' ' || c == 127) {
                throw new Invalid(where + " holds a token with a space or control character: use letters, digits "
                        + "and punctuation only");
            }
        }
        return token;
    }

    /**
     * Whether {@code candidate} is the token, in time independent of where they differ and of the
     * token's length: both are hashed first and the digests compared with {@link MessageDigest#isEqual}.
     */
    public boolean matches(String candidate) {
        return MessageDigest.isEqual(digest, sha256(candidate));
    }

    /** The secret itself: for sending it (client) or printing it once at start (a generated one). */
    public String reveal() {
        return value;
    }

    /** Where it came from: "--monitor-token-file", the variable's name, or "generated". */
    public String source() {
        return source;
    }

    public boolean generated() {
        return source.equals("generated");
    }

    @Override
    public String toString() {
        return "MonitorToken(" + source + ")";
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
