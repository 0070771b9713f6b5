package io.nbench.testkit;

/** Hex strings as written in protocol-vectors.md (spaces ignored). */
public final class Hex {

    private Hex() {
    }

    public static byte[] bytes(String hex) {
        String s = hex.replaceAll("\\s+", "");
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    public static String string(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}
