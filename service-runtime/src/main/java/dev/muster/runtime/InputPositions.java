package dev.muster.runtime;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.runtime.EventProcessor.Produced;

/**
 * Where a stateful service's inputs stood when it last committed a transaction, kept in its own compacted state topic
 * beside the state, in the same transactions: so state and positions can never disagree, whatever the consumer group's
 * committed offsets say.
 * <p>
 * They can go back. A long storm saw a broker restart hand placement's group the offsets it had committed 14 minutes
 * earlier on every partition, while its state topic kept every later change: the new owner read those 14 minutes
 * again against state that had already moved past them and placed again 1,508 jobs, deleted ones included. With the
 * positions restored with the state, a record below its partition's position was decided already and is passed over;
 * the batch that passes over it commits the group forward.
 * <p>
 * Topics a service reads again from the beginning on purpose (placement's inventory) are never positioned.
 */
public final class InputPositions {

    private static final Logger LOG = Logger.getLogger(InputPositions.class);

    /** Keys of position records start with this; the rest is the topic, a slash and the partition. */
    static final String KEY_PREFIX = "position/";

    private final String stateTopic;
    private final Set<String> readFromTheBeginning;
    /** The next offset to decide of each partition, as the state topic held it at the last restore. */
    private final Map<TopicPartition, Long> restored = new ConcurrentHashMap<>();
    /** Where each assigned partition ended when it was assigned: a position past it is of a topic deleted and created since. */
    private final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    /** The partitions whose records were passed over since the last restore: said once each. */
    private final Set<TopicPartition> announced = ConcurrentHashMap.newKeySet();

    /**
     * @param stateTopic           the service's compacted state topic, where the positions are kept
     * @param readFromTheBeginning input topics the service reads again from their beginning on purpose: never positioned
     */
    public InputPositions(String stateTopic, Set<String> readFromTheBeginning) {
        this.stateTopic = Objects.requireNonNull(stateTopic, "stateTopic");
        this.readFromTheBeginning = Set.copyOf(readFromTheBeginning);
    }

    /**
     * Where the partitions just assigned end; call before the restore that follows the assignment. A position past its
     * partition's end is dropped at the restore, said in a warning: the topic was deleted and created again, and nothing in
     * it was decided yet.
     */
    public void partitionsEndAt(Map<TopicPartition, Long> endOffsets) {
        ends.putAll(endOffsets);
    }

    /**
     * {@link #partitionsEndAt} as the consumer reads them, on its polling thread (a rebalance listener). A read-committed
     * consumer's end is the last stable offset, which never goes back, and no position was recorded past it. If the ends
     * cannot be read now, no position is dropped.
     */
    public void assigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        try {
            partitionsEndAt(consumer.endOffsets(partitions));
        } catch (RuntimeException e) {
            LOG.warnf("reading where the assigned partitions end failed (%s); the positions are taken as they are", e.toString());
        }
    }

    /**
     * Takes the positions out of what the state topic holds (its latest value per key) and returns the rest, the
     * service's own state. A key that looks like a position but whose value is not one is left to the service: keys
     * of its state come from jobs, which may be named anything.
     */
    public Map<String, byte[]> restore(Map<String, byte[]> latest) {
        Map<String, byte[]> state = new LinkedHashMap<>(latest.size());
        Map<TopicPartition, Long> positions = new LinkedHashMap<>();
        latest.forEach((key, value) -> {
            TopicPartition partition = partitionOf(key);
            Long next = partition == null ? null : offsetOf(value);
            if (next == null) {
                state.put(key, value);
            } else if (ends.containsKey(partition) && next > ends.get(partition)) {
                LOG.warnf("%s ends at offset %d, before the position %d the state topic holds for it: the topic was created again; "
                        + "its records are all decided", partition, ends.get(partition), next);
            } else {
                positions.put(partition, next);
            }
        });
        restored.clear();
        restored.putAll(positions);
        announced.clear();
        return state;
    }

    /** Whether the record was decided before the last restore: its offset is below its partition's position. */
    public boolean decided(String topic, int partition, long offset) {
        Long next = restored.get(new TopicPartition(topic, partition));
        return next != null && offset >= 0 && offset < next;
    }

    /** The position records for a committed batch whose last record on each partition is at the given offset. */
    public List<Produced> records(Map<TopicPartition, Long> lastOffsets) {
        List<Produced> records = new ArrayList<>(lastOffsets.size());
        lastOffsets.forEach((partition, last) -> {
            if (!readFromTheBeginning.contains(partition.topic())) {
                records.add(new Produced(stateTopic, key(partition), Long.toString(last + 1).getBytes(StandardCharsets.UTF_8)));
            }
        });
        return records;
    }

    /** Says, once per partition and restore, that records already decided are read again and passed over. */
    void passedOver(Map<TopicPartition, Integer> counts) {
        counts.forEach((partition, count) -> {
            if (announced.add(partition)) {
                LOG.warnf("passing over the records of %s below offset %d (%d in this batch): the state topic says they were decided "
                        + "already; the group's committed offsets were behind it", partition, restored.get(partition), count);
            }
        });
    }

    static String key(TopicPartition partition) {
        return KEY_PREFIX + partition.topic() + "/" + partition.partition();
    }

    private static TopicPartition partitionOf(String key) {
        if (key == null || !key.startsWith(KEY_PREFIX)) {
            return null;
        }
        int slash = key.lastIndexOf('/');
        if (slash <= KEY_PREFIX.length()) {
            return null;
        }
        try {
            return new TopicPartition(key.substring(KEY_PREFIX.length(), slash), Integer.parseInt(key.substring(slash + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long offsetOf(byte[] value) {
        if (value == null || value.length == 0 || value.length > 19) {
            return null;
        }
        try {
            long next = Long.parseLong(new String(value, StandardCharsets.UTF_8));
            return next >= 0 ? next : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
