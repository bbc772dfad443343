package dev.muster.local;

import dev.muster.model.event.KafkaAccess;

/** The three services, in the order the stack starts them, each with its HTTP port's offset from the base. */
public enum MusterService {

    QUEUE("queue-service", "queue", 1, KafkaAccess.QUEUE),
    PLACEMENT("placement-service", "placement", 2, KafkaAccess.PLACEMENT),
    STATUS_SYNC("status-sync-service", "status-sync", 3, KafkaAccess.STATUS_SYNC);

    private final String artifact;
    private final String endpointKey;
    private final int portOffset;
    private final KafkaAccess kafkaAccess;

    MusterService(String artifact, String endpointKey, int portOffset, KafkaAccess kafkaAccess) {
        this.artifact = artifact;
        this.endpointKey = endpointKey;
        this.portOffset = portOffset;
        this.kafkaAccess = kafkaAccess;
    }

    /** What it does on Kafka: on a secured broker, all its user may do. */
    public KafkaAccess kafkaAccess() {
        return kafkaAccess;
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
