package io.nbench.protocol;

import java.nio.ByteBuffer;

/** nbench's own protocol ({@link Framed}): requests carry an id and ask for a response length. */
final class FramedProtocol implements Protocol {

    private final FramedClientCodec client = new FramedClientCodec();

    FramedProtocol() {
    }

    @Override
    public String label() {
        return "framed";
    }

    @Override
    public String summary() {
        return "length, response length, id";
    }

    @Override
    public boolean responsesCarryIds() {
        return true;
    }

    @Override
    public boolean responseIsRequest() {
        return false;
    }

    @Override
    public int minSize() {
        return 0;
    }

    @Override
    public boolean hasRequests() {
        return true;
    }

    @Override
    public boolean framedLayout() {
        return true;
    }

    @Override
    public ClientCodec client() {
        return client;
    }

    @Override
    public ServerCodec newServerCodec(ServerCodec.Settings settings, ServerCodec.Listener listener) {
        return new FramedRequestParser(settings.maxFrame(), listener);
    }

    /** A rejected frame (status 1, no payload) with the id of the response it replaces. */
    @Override
    public ByteBuffer rejectedResponse(ByteBuffer response) {
        return ByteBuffer.wrap(Framed.rejectedResponse(response.getLong(response.position() + 4)));
    }

    @Override
    public String toString() {
        return label();
    }
}
