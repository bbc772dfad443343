package dev.muster.statussync.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobRef;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.statussync.core.mirror.RememberedCopy;

/** The copies' records reach the state topic in the order decided, each only after the events decided with it. */
class RememberedCopiesTopicTest {

    private static final Optional<FailoverPolicy> FAILOVER = Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY));

    private final List<String> sent = new ArrayList<>();
    private final RememberedCopiesTopic topic = new RememberedCopiesTopic(new Inline(),
            changes -> changes.forEach((key, copy) -> sent.add(key + (copy == null ? " removed" : copy.departed() ? " left" : " followed"))));

    private static RememberedCopy copy(String cluster, String uid, boolean departed) {
        return new RememberedCopy(cluster, new JobRef("team-a", "job-" + uid, uid), "copy-" + uid, 0, FAILOVER, Optional.of(Instant.EPOCH), departed);
    }

    @Test
    void aCopyLeftByAFailoverIsRecordedOnlyOnceTheFailoverIsOnTheBroker() {
        CompletableFuture<Void> failoverAcknowledged = new CompletableFuture<>();

        topic.write(Map.of("gpu-a/uid-2", copy("gpu-a", "uid-2", true)), failoverAcknowledged);
        // Decided later, with nothing to wait for: still after the first.
        topic.write(Map.of("gpu-b/uid-3", copy("gpu-b", "uid-3", false)), CompletableFuture.completedFuture(null));
        assertThat(sent).as("recorded before its failover was on the broker").isEmpty();

        failoverAcknowledged.complete(null);
        assertThat(sent).containsExactly("gpu-a/uid-2 left", "gpu-b/uid-3 followed");
    }

    @Test
    void aFailoverTheBrokerRefusedDoesNotHoldBackTheRecordsForGood() {
        CompletableFuture<Void> failoverRefused = new CompletableFuture<>();
        topic.write(Map.of("gpu-a/uid-2", copy("gpu-a", "uid-2", true)), failoverRefused);

        failoverRefused.completeExceptionally(new IllegalStateException("the broker is away"));
        topic.write(java.util.Collections.singletonMap("gpu-a/uid-2", null), CompletableFuture.completedFuture(null));

        assertThat(sent).containsExactly("gpu-a/uid-2 left", "gpu-a/uid-2 removed");
    }

    /** Runs each task on the thread that hands it over, so that what has been sent is known at each step. */
    private static final class Inline extends AbstractExecutorService {

        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
