package io.nbench.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StreamedRequestTest {

    private static long frame(int payload) {
        return Framed.requestFrameLength(payload);
    }

    @Test
    void streamsOnlyWhenThePayloadOrTheResponseIsOver64KiB() {
        assertFalse(StreamedRequest.streams(frame(65_536), 65_536));
        assertTrue(StreamedRequest.streams(frame(65_537), 0));
        assertTrue(StreamedRequest.streams(frame(0), 65_537));
        assertFalse(StreamedRequest.streams(frame(0), 0));
    }

    @Test
    void copiesThePayloadUpToTheResponseLengthThenPads() {
        StreamedRequest s = new StreamedRequest();
        s.start(frame(100_000), 150_000);
        assertTrue(s.active());
        assertEquals(100_000, s.payloadLeft());
        assertEquals(60_000, s.consume(60_000));
        assertEquals(40_000, s.consume(40_000));
        assertEquals(0, s.payloadLeft());
        assertEquals(50_000, s.padding());
        assertEquals(4 + 12 + 100_000, s.requestBytes());
        assertEquals(13 + 150_000, s.responseBytes());
        s.finish();
        assertFalse(s.active());
    }

    @Test
    void aShorterResponseTakesTheFirstBytesAndSkipsTheRest() {
        StreamedRequest s = new StreamedRequest();
        s.start(frame(200_000), 70_000);
        assertEquals(50_000, s.consume(50_000));
        assertEquals(20_000, s.consume(100_000));
        assertEquals(0, s.consume(50_000));
        assertEquals(0, s.padding());
        s.finish();
    }

    @Test
    void aOneWayRequestHasNoResponseBytes() {
        StreamedRequest s = new StreamedRequest();
        s.start(frame(100_000), 0);
        assertEquals(0, s.consume(0), "nothing has arrived yet");
        assertEquals(0, s.consume(100_000));
        assertEquals(0, s.responseBytes());
        assertEquals(0, s.padding());
    }

    @Test
    void refusesToConsumeMoreThanIsLeftOrToFinishEarly() {
        StreamedRequest s = new StreamedRequest();
        s.start(frame(70_000), 70_000);
        assertThrows(IllegalArgumentException.class, () -> s.consume(70_001));
        assertThrows(IllegalArgumentException.class, () -> s.consume(-1));
        s.consume(69_999);
        assertThrows(IllegalStateException.class, s::finish);
        s.consume(1);
        s.finish();
        // Reused for the next large request of the connection.
        s.start(frame(0), 100_000);
        assertEquals(0, s.payloadLeft());
        assertEquals(100_000, s.padding());
    }
}
