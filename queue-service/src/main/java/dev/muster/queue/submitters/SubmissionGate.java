package dev.muster.queue.submitters;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.TopicContract;
import dev.muster.model.event.Topics;
import dev.muster.runtime.BinaryCloudEvents;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.runtime.RecordProcessor;

/**
 * Where submissions from a secured Kafka cluster enter: a record on a submitter's inbox ({@link Topics#inboxOf}),
 * which Kafka's ACLs let only that principal write, is passed on to {@link Topics#SUBMISSIONS} unchanged when it is a
 * submission or deletion of a job in a namespace the principal may use, and refused onto the dead-letter topic
 * otherwise. Kafka records do not say who produced them: the inbox does.
 * <p>
 * What is passed on is everything else as it came, invalid or not: the queue service then tells the job what is wrong
 * with it, as for any submission. A refused record tells no job anything, since it names a namespace its sender may
 * not write to; its reason is on the dead letter, for the sender to read. A deletion passed on still names a job by
 * its uid: the queue refuses it unless that job is in the namespace it names (see {@code FleetQueue}).
 */
public final class SubmissionGate implements RecordProcessor {

    static final String SERVICE = "queue-service";
    private static final java.util.regex.Pattern TOPIC_NAME = java.util.regex.Pattern.compile("[a-zA-Z0-9._-]+");
    private static final java.util.regex.Pattern NAMESPACE = java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final int MAX_TOPIC_NAME = 249;
    private static final Logger LOG = System.getLogger("dev.muster.queue.submitters");

    private final Map<String, Set<String>> namespacesByPrincipal;
    private final Clock clock;

    private SubmissionGate(Map<String, Set<String>> namespacesByPrincipal, Clock clock) {
        this.namespacesByPrincipal = Map.copyOf(namespacesByPrincipal);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param namespacesByPrincipal for each submitter (its principal's name), the namespaces it may submit to and delete from
     * @throws IllegalArgumentException naming the submitter, when a name cannot be a topic's or it is given no valid namespace
     */
    public static SubmissionGate of(Map<String, Set<String>> namespacesByPrincipal, Clock clock) {
        List<String> problems = new java.util.ArrayList<>();
        namespacesByPrincipal.forEach((principal, namespaces) -> {
            String where = "muster.queue.submitters.\"" + principal + "\"";
            if (!TOPIC_NAME.matcher(principal).matches() || Topics.inboxOf(principal).length() > MAX_TOPIC_NAME) {
                problems.add(where + ": a submitter's name makes its inbox " + Topics.inboxOf(principal)
                        + ", so it must be letters, digits, '.', '_' and '-', at most " + (MAX_TOPIC_NAME - Topics.INBOX_PREFIX.length()) + " of them");
            }
            if (namespaces == null || namespaces.isEmpty()) {
                problems.add(where + ".namespaces: name at least one namespace");
            } else {
                namespaces.stream().filter(namespace -> !NAMESPACE.matcher(namespace).matches())
                        .forEach(namespace -> problems.add(where + ".namespaces: \"" + namespace + "\" is not a namespace name (a DNS label)"));
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new SubmissionGate(namespacesByPrincipal, clock);
    }

    @Override
    public List<Produced> process(Consumed record) {
        // A binary-mode CloudEvent is passed on in the structured mode every reader past the gate reads.
        byte[] event;
        try {
            event = BinaryCloudEvents.structured(record.headers(), record.value());
        } catch (MalformedEventException e) {
            return List.of(EventProcessor.deadLetter(SERVICE, record, "refused: cannot tell which namespace the record is for: " + e.getMessage(),
                    clock));
        }
        Optional<String> refusal = refusal(record, event);
        if (refusal.isPresent()) {
            return List.of(EventProcessor.deadLetter(SERVICE, record, refusal.get(), clock));
        }
        return List.of(new Produced(Topics.SUBMISSIONS, record.key(), event, record.traceparent()));
    }

    private Optional<String> refusal(Consumed record, byte[] value) {
        if (!Topics.isInbox(record.topic())) {
            return Optional.of(record.topic() + " is not a submitter's inbox (" + Topics.INBOX_PREFIX + "<principal>)");
        }
        String principal = Topics.inboxOwner(record.topic());
        Set<String> namespaces = namespacesByPrincipal.get(principal);
        if (namespaces == null) {
            return Optional.of("refused: no submitter \"" + principal + "\" is configured (muster.queue.submitters.\"" + principal
                    + "\".namespaces), so it may submit to no namespace");
        }
        // Decoded as the queue will decode it, so that the namespace authorized here is the one the queue acts in.
        JobRef job;
        try {
            MusterEvent event = EventSerde.deserialize(value, record.timestamp());
            if (!(event instanceof JobEvent jobEvent) || !TopicContract.carries(record.topic(), event.type())) {
                return Optional.of("refused: " + principal + " may only submit and delete jobs, not send "
                        + event.type().cloudEventType());
            }
            job = jobEvent.job();
        } catch (MalformedEventException e) {
            if (e.job().isEmpty()) {
                return Optional.of("refused: cannot tell which namespace the record is for: " + e.getMessage());
            }
            job = e.job().get();
        }
        if (!namespaces.contains(job.namespace())) {
            return Optional.of("refused: " + principal + " may submit to and delete from " + String.join(", ", new TreeSet<>(namespaces))
                    + " only, not namespace " + job.namespace() + " (job " + job.subject() + ")");
        }
        LOG.log(Level.DEBUG, "passing on {0} from {1}", job.subject(), principal);
        return Optional.empty();
    }
}
