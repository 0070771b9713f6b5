package io.nbench.transport;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;

/** The framed-protocol test vectors of {@code /work/shared/protocol-vectors.md}, byte for byte. */
public final class Vectors {

    public static final int MAX_FRAME = 0x0100_0000;

    public static final byte[] REQ1 = hex("0000000f 00000003 0000000000000001 616263");
    public static final byte[] RESP1 = hex("0000000c 0000000000000001 00 616263");
    public static final byte[] REQ2 = hex("0000000e 00000000 0000000000000002 0102");
    public static final byte[] REQ3 = hex("00000011 00000002 0000000000000003 68656c6c6f");
    public static final byte[] RESP3 = hex("0000000b 0000000000000003 00 6865");
    public static final byte[] REQ4 = hex("0000000e 00000005 0000000000000004 6869");
    public static final byte[] RESP4 = hex("0000000e 0000000000000004 00 6869000000");
    public static final byte[] REQ5 = hex("0000000c 00000004 0000000000000005");
    public static final byte[] RESP5 = hex("0000000d 0000000000000005 00 00000000");
    public static final byte[] REQ6 = concat(REQ1, REQ2, REQ3);
    public static final byte[] RESP6 = hex("0000000c 0000000000000001 00 616263 0000000b 0000000000000003 00 6865");
    public static final byte[] REQ8_HEADER = hex("0100000c 00000001 0000000000000006");
    public static final byte[] RESP8 = hex("0000000a 0000000000000006 00 00");
    public static final byte[] REQ9 = hex("0000000b 00000000 0000000000000007 00");
    public static final byte[] REQ10 = hex("0100000d 00000001 0000000000000008");
    public static final byte[] REQ11 = hex("0000000c 01000001 0000000000000009");
    public static final byte[] REQ12 = hex("0000000c 80000000 000000000000000a");

    private Vectors() {
    }

    public static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    /** Vector 8: the largest legal request, payload exactly 16 MiB of zeros. */
    public static byte[] request8() {
        byte[] r = new byte[REQ8_HEADER.length + MAX_FRAME];
        System.arraycopy(REQ8_HEADER, 0, r, 0, REQ8_HEADER.length);
        return r;
    }
}
