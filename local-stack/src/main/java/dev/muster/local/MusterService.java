package dev.muster.local;

/** The three services, in the order the stack starts them, each with its HTTP port's offset from the base. */
public enum MusterService {

    QUEUE("queue-service", 1),
    PLACEMENT("placement-service", 2),
    STATUS_SYNC("status-sync-service", 3);

    private final String artifact;
    private final int portOffset;

    MusterService(String artifact, int portOffset) {
        this.artifact = artifact;
        this.portOffset = portOffset;
    }

    /** The service's module, and the name of its jar's folder. */
    public String artifact() {
        return artifact;
    }

    int portOffset() {
        return portOffset;
    }
}
