package io.nbench.transport;

/** Whether a transport (or one of its modes) can run here; when not, the reason a user can act on. */
public record Availability(boolean available, String reason) {

    public static Availability yes() {
        return new Availability(true, "");
    }

    public static Availability no(String reason) {
        return new Availability(false, reason);
    }
}
