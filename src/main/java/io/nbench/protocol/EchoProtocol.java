package io.nbench.protocol;

/** RFC 862: the server writes back every byte it reads; the client counts a response per message size. */
final class EchoProtocol implements Protocol {

    private final EchoClientCodec client = new EchoClientCodec();

    EchoProtocol() {
    }

    @Override
    public String label() {
        return "echo";
    }

    @Override
    public String summary() {
        return "RFC 862";
    }

    @Override
    public boolean responsesCarryIds() {
        return false;
    }

    @Override
    public boolean responseIsRequest() {
        return true;
    }

    /** Responses are counted per message size: a message of 0 bytes would never be answered. */
    @Override
    public int minSize() {
        return 1;
    }

    @Override
    public boolean hasRequests() {
        return false;
    }

    @Override
    public ClientCodec client() {
        return client;
    }

    @Override
    public ServerCodec newServerCodec(ServerCodec.Settings settings, ServerCodec.Listener listener) {
        return new EchoServerCodec(listener);
    }

    @Override
    public String toString() {
        return label();
    }
}
