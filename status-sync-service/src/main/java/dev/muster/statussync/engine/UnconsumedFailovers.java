package dev.muster.statussync.engine;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.Topics;
import dev.muster.runtime.CompactedTopic;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.RecordReader;
import dev.muster.statussync.core.mirror.JobMirror;
import io.smallrye.common.annotation.Identifier;

/**
 * The failovers status sync published that its consumer group has not consumed yet, read when an instance becomes the
 * active one, before it watches any member. A predecessor that died as the broker took a failover never recorded the
 * copy it left (the record follows the event); the next instance learns it from the event, and must before a member
 * shows it that copy, or it would take the copy for the job's (and report its end as the job's). Its consumer reads
 * the same records later, to the same effect.
 */
@ApplicationScoped
public class UnconsumedFailovers {

    private static final Logger LOG = Logger.getLogger(UnconsumedFailovers.class);
    private static final RecordReader READER = RecordReader.everything().readingOnly(EnumSet.of(EventType.FAILOVER_TRIGGERED));

    private final Map<String, Object> connection;

    @Inject
    UnconsumedFailovers(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration) {
        this.connection = CompactedTopic.connection(kafkaConfiguration);
    }

    /**
     * The failover events from each partition's position to its end; none when they cannot be read (said in a warning:
     * the consumer reads them soon after, and a copy left is then taken for one only until then).
     *
     * @param from the position of the group in each partition of {@link Topics#MEMBER_STATUS} it was given
     */
    public List<JobEvent> read(Map<TopicPartition, Long> from) {
        List<JobEvent> failovers = new ArrayList<>();
        if (from.isEmpty()) {
            return failovers;
        }
        try {
            CompactedTopic.readFrom(connection, from, record -> {
                Consumed consumed = new Consumed(record.topic(), record.partition(), record.offset(), record.key(), record.value(), record.headers());
                // Status sync's own only: another source's is never obeyed (the mirror passes it over too).
                if (READER.read(consumed) instanceof RecordReader.Decoded decoded && decoded.event() instanceof JobEvent failover
                        && JobMirror.SOURCE.equals(failover.source())) {
                    failovers.add(failover);
                }
            });
        } catch (RuntimeException e) {
            LOG.warnf("the failovers on %s not consumed yet could not be read (%s): they are judged as the consumer reads them",
                    Topics.MEMBER_STATUS, e.getMessage());
        }
        return failovers;
    }
}
