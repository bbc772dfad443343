package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * What a new owner of the inputs must read before it carries out what its predecessor left owed: each partition up to
 * its end offset at the assignment, however many batches that takes; an aborted batch read again; and, should the end
 * never be reached while batches flow, a patience past which it goes on.
 */
class BacklogTest {

    private static final TopicPartition ADMISSIONS = new TopicPartition("muster.job.admissions", 0);
    private static final TopicPartition RESULTS = new TopicPartition("muster.placement.results", 1);
    private static final TopicPartition IDLE = new TopicPartition("muster.job.member-status", 2);

    private final MutableClock clock = new MutableClock();
    private final Backlog backlog = new Backlog("test", Duration.ofSeconds(30), clock);

    private void assign() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
        consumer.assign(List.of(ADMISSIONS, RESULTS, IDLE));
        consumer.updateBeginningOffsets(Map.of(ADMISSIONS, 0L, RESULTS, 0L, IDLE, 0L));
        consumer.updateEndOffsets(Map.of(ADMISSIONS, 10L, RESULTS, 4L, IDLE, 0L));
        consumer.seek(ADMISSIONS, 3);
        backlog.assigned(consumer, List.of(ADMISSIONS, RESULTS, IDLE));
    }

    @Test
    void theBacklogIsReadOnceEveryPartitionReachedItsEndAtTheAssignment() {
        assign();
        assertThat(backlog.isRead()).isFalse();

        assertThat(backlog.committed(Map.of(ADMISSIONS, 10L))).as("results still behind").isFalse();
        assertThat(backlog.committed(Map.of(RESULTS, 3L))).as("a transaction marker's offset still to pass").isFalse();
        assertThat(backlog.committed(Map.of(RESULTS, 4L))).isTrue();

        assertThat(backlog.isRead()).isTrue();
        assertThat(backlog.committed(Map.of(RESULTS, 9L))).as("told once").isFalse();
    }

    @Test
    void anAbortedBatchMustBeReadAgainBeforeTheBacklogCountsAsRead() {
        assign();
        backlog.committed(Map.of(ADMISSIONS, 10L, RESULTS, 4L));
        assertThat(backlog.isRead()).isTrue();

        backlog.aborted(Map.of(RESULTS, 7L));

        assertThat(backlog.isRead()).isFalse();
        assertThat(backlog.committed(Map.of(RESULTS, 7L))).isTrue();
    }

    @Test
    void pastItsPatienceWithBatchesFlowingItGoesOnAndAPauseStartsThePatienceAgain() {
        assign();
        // The broker away for a minute: no batch could read anything meanwhile.
        clock.advance(Duration.ofSeconds(60));
        assertThat(backlog.committed(Map.of())).as("the first batch after a pause").isFalse();
        for (int second = 1; second <= 30; second++) {
            clock.advance(Duration.ofSeconds(1));
            assertThat(backlog.committed(Map.of(ADMISSIONS, 5L))).as("%d s of batches", second).isFalse();
        }
        clock.advance(Duration.ofSeconds(1));

        assertThat(backlog.committed(Map.of())).as("31 s of batches that never reached the end").isTrue();
        assertThat(backlog.isRead()).isTrue();
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {

        private Instant now = Instant.parse("2026-12-04T09:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
