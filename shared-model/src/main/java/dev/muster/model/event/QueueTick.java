package dev.muster.model.event;

/**
 * Asks the queue service to re-evaluate its queues now, for decisions that only time changes (a backoff that
 * expired, a job that started to starve). Sent by the queue service to itself, so that those decisions go
 * through the same exactly-once path as every other; one key, so compaction keeps only the latest tick.
 */
public record QueueTick() implements ConfigEventData {

    public static final String SUBJECT = "muster/queue-tick";

    @Override
    public String subject() {
        return SUBJECT;
    }

    @Override
    public String key() {
        return "QueueTick/" + SUBJECT;
    }

    @Override
    public String summary() {
        return "queue re-evaluation tick";
    }
}
