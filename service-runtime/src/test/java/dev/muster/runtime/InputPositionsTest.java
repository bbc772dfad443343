package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class InputPositionsTest {

    private static final String STATE = "muster.placement.state";
    private static final String ADMISSIONS = "muster.job.admissions";
    private static final String INVENTORY = "muster.cluster.inventory";

    private final InputPositions positions = new InputPositions(STATE, Set.of(INVENTORY));

    @Test
    void aCommittedBatchRecordsTheNextOffsetOfEachPartitionItReadExceptTopicsReadFromTheBeginning() {
        Map<TopicPartition, Long> last = new LinkedHashMap<>();
        last.put(new TopicPartition(ADMISSIONS, 1), 41L);
        last.put(new TopicPartition(INVENTORY, 0), 900L);

        assertThat(positions.records(last)).singleElement().satisfies(record -> {
            assertThat(record.topic()).isEqualTo(STATE);
            assertThat(record.key()).isEqualTo("position/" + ADMISSIONS + "/1");
            assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("42");
        });
    }

    @Test
    void aRestoreTakesThePositionsOutOfTheStateAndPassesOverWhatIsBelowThem() {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        latest.put("uid-1", "{\"stage\":\"BOUND\"}".getBytes(StandardCharsets.UTF_8));
        positions.records(Map.of(new TopicPartition(ADMISSIONS, 1), 41L)).forEach(record -> latest.put(record.key(), record.value()));

        Map<String, byte[]> state = positions.restore(latest);

        assertThat(state).containsOnlyKeys("uid-1");
        assertThat(positions.decided(ADMISSIONS, 1, 41)).as("the last record the state saw").isTrue();
        assertThat(positions.decided(ADMISSIONS, 1, 42)).as("the first record it did not see").isFalse();
        assertThat(positions.decided(ADMISSIONS, 0, 0)).as("a partition the state holds no position of").isFalse();
        assertThat(positions.decided(INVENTORY, 1, 0)).isFalse();
    }

    @Test
    void aJobWhoseKeyLooksLikeAPositionStaysTheServicesStateAndEachRestoreReplacesThePositions() {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        latest.put("position/" + ADMISSIONS + "/2", "{\"stage\":\"WAITING\"}".getBytes(StandardCharsets.UTF_8));
        latest.put("position/" + ADMISSIONS + "/x", "5".getBytes(StandardCharsets.UTF_8));
        latest.put("position/" + ADMISSIONS + "/0", "7".getBytes(StandardCharsets.UTF_8));

        assertThat(positions.restore(latest)).containsOnlyKeys("position/" + ADMISSIONS + "/2", "position/" + ADMISSIONS + "/x");
        assertThat(positions.decided(ADMISSIONS, 0, 6)).isTrue();

        positions.restore(Map.of());
        assertThat(positions.decided(ADMISSIONS, 0, 6)).as("a state topic without positions, as before they were kept").isFalse();
    }

    @Test
    void aPositionPastTheEndOfItsPartitionIsOfATopicCreatedAgainAndIsDropped() {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        positions.records(Map.of(new TopicPartition(ADMISSIONS, 0), 41L, new TopicPartition(ADMISSIONS, 1), 9L))
                .forEach(record -> latest.put(record.key(), record.value()));
        positions.partitionsEndAt(Map.of(new TopicPartition(ADMISSIONS, 0), 3L, new TopicPartition(ADMISSIONS, 1), 10L));

        positions.restore(latest);

        assertThat(positions.decided(ADMISSIONS, 0, 2)).as("a topic created again, 3 records long").isFalse();
        assertThat(positions.decided(ADMISSIONS, 1, 9)).isTrue();
    }
}
