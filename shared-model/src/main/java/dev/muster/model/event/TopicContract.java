package dev.muster.model.event;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What each topic carries: the event types its writer produces there, and the key every record has. A record that
 * breaks it (an {@code admitted} produced to the submissions topic, a job event keyed otherwise than by its job) is no
 * decision to act on, whatever its content says: the queue service reports those on the submissions topic, where
 * producers write; every service passes them over everywhere else.
 */
public final class TopicContract {

    private static final Map<String, Set<EventType>> TYPES = Map.of(
            Topics.SUBMISSIONS, EnumSet.of(EventType.SUBMITTED, EventType.DELETED),
            Topics.ADMISSIONS, EnumSet.of(EventType.QUEUED, EventType.ADMITTED, EventType.REJECTED, EventType.PREEMPTED, EventType.WITHDRAWN,
                    EventType.CONFIG_ACCEPTED, EventType.CONFIG_REJECTED),
            Topics.PLACEMENTS, EnumSet.of(EventType.PLACEMENT_ATTEMPTED, EventType.PLACEMENT_FAILED, EventType.BOUND, EventType.GIVEN_BACK,
                    EventType.REJECTED, EventType.EVICTED),
            Topics.MEMBER_STATUS, EnumSet.of(EventType.MEMBER_STATUS_CHANGED, EventType.FAILOVER_TRIGGERED, EventType.FINISHED,
                    EventType.SHOWN),
            Topics.FLEET_CONFIG, EnumSet.of(EventType.POLICY_APPLIED, EventType.POLICY_DELETED, EventType.QUOTA_TREE_APPLIED,
                    EventType.QUOTA_TREE_DELETED, EventType.PRIORITY_CLASS_APPLIED, EventType.PRIORITY_CLASS_DELETED, EventType.QUEUE_TICK),
            Topics.PLACEMENT_RESULTS, EnumSet.of(EventType.MEMBER_WRITE_ANSWERED, EventType.PLACEMENT_TICK),
            Topics.INVENTORY, EnumSet.copyOf(java.util.Arrays.stream(EventType.values()).filter(EventType::isMemberEvent).toList()));

    private TopicContract() {
    }

    /** The types the topic carries (a submitter's inbox: those of the submissions topic); every type for a topic this contract does not know. */
    public static Set<EventType> typesOf(String topic) {
        return TYPES.getOrDefault(Topics.isInbox(topic) ? Topics.SUBMISSIONS : topic, EnumSet.allOf(EventType.class));
    }

    /** Whether a record of this type may be on the topic at all. */
    public static boolean carries(String topic, EventType type) {
        return typesOf(topic).contains(type);
    }

    /** What is wrong with a record of this key carrying this event on the topic, if anything. */
    public static Optional<String> problem(String topic, String key, MusterEvent event) {
        if (!carries(topic, event.type())) {
            return Optional.of(event.type().cloudEventType() + " is not accepted on " + topic + ", which takes only "
                    + typesOf(topic).stream().map(EventType::cloudEventType).sorted().collect(Collectors.joining(", ")));
        }
        if (!event.key().equals(key)) {
            // Kafka keeps order per key: a job's events under any other key could be decided out of order.
            String what = event instanceof JobEvent ? "the event's jobuid" : "its object's key";
            return Optional.of(key == null ? "the record has no key; it must be " + what + " \"" + event.key() + "\""
                    : "the record's key \"" + key + "\" is not " + what + " \"" + event.key() + "\"");
        }
        return Optional.empty();
    }
}
