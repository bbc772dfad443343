package dev.muster.local;

/** The three services, in the order the stack starts them, each with its HTTP port's offset from the base. */
public enum MusterService {

    QUEUE("queue-service", "queue", 1),
    PLACEMENT("placement-service", "placement", 2),
    STATUS_SYNC("status-sync-service", "status-sync", 3);

    private final String artifact;
    private final String endpointKey;
    private final int portOffset;

    MusterService(String artifact, String endpointKey, int portOffset) {
        this.artifact = artifact;
        this.endpointKey = endpointKey;
        this.portOffset = portOffset;
    }

    /** The service's key in the endpoints file ({@code status-sync=http://...}). */
    public String endpointKey() {
        return endpointKey;
    }

    /** The service's module, and the name of its jar's folder. */
    public String artifact() {
        return artifact;
    }

    int portOffset() {
        return portOffset;
    }
}
