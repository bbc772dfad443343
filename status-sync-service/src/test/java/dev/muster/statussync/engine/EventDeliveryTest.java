package dev.muster.statussync.engine;

import static dev.muster.statussync.Retries.AT_ONCE;
import static dev.muster.statussync.Retries.IN_AN_HOUR;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.statussync.Retries;

/** Status sync's events reach the broker however long it is away, and a job's copies are purged only once they have. */
class EventDeliveryTest {

    @RegisterExtension
    final Retries retries = new Retries();

    private static JobEvent failover(String uid) {
        return JobEvent.observed("status-sync", new JobRef("team-a", "job-" + uid, uid), Instant.EPOCH,
                new FailoverTriggered("gpu-a", "NodeNotReady", "node n1 is NotReady", "Immediately"), "copy-" + uid + "|failover");
    }

    @Test
    void anEventTheProducerGaveUpOnIsSentAgainUntilTheBrokerHasIt() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        EventDelivery delivery = new EventDelivery(event -> tries.incrementAndGet() <= 3
                ? CompletableFuture.failedFuture(new org.apache.kafka.common.errors.TimeoutException("expired after 120000 ms"))
                : CompletableFuture.completedFuture(null), retries.executor(), AT_ONCE, () -> false);

        CompletableFuture<Void> delivered = delivery.send(failover("uid-1"));

        delivered.get(10, TimeUnit.SECONDS);
        assertThat(tries).hasValue(4);
        assertThat(delivery.delivered("uid-1")).isDone();
    }

    @Test
    void aJobIsDeliveredOnceEveryEventSentOfItIsOnTheBrokerAndNoOtherJobWaitsForIt() {
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        EventDelivery delivery = new EventDelivery(event -> {
            CompletableFuture<Void> send = new CompletableFuture<>();
            sends.add(send);
            return send;
        }, retries.executor(), AT_ONCE, () -> false);

        delivery.send(failover("uid-1"));
        delivery.send(failover("uid-1"));
        delivery.send(failover("uid-2"));

        assertThat(delivery.delivered("uid-1")).isNotDone();
        assertThat(delivery.delivered("uid-3")).as("a job with nothing sent").isDone();
        sends.get(0).complete(null);
        assertThat(delivery.delivered("uid-1")).as("its second event is not on the broker yet").isNotDone();
        sends.get(1).complete(null);
        assertThat(delivery.delivered("uid-1")).isDone();
        assertThat(delivery.delivered("uid-2")).isNotDone();
    }

    @Test
    void anEventRefusedWhileTheServiceStopsIsLeftToTheNextInstanceAndItsJobIsNeverDelivered() {
        EventDelivery running = new EventDelivery(event -> CompletableFuture.failedFuture(new IllegalStateException("broker away")),
                retries.executor(), IN_AN_HOUR, () -> false);
        EventDelivery stopping = new EventDelivery(event -> CompletableFuture.failedFuture(new IllegalStateException("broker away")),
                retries.executor(), IN_AN_HOUR, () -> true);

        running.send(failover("uid-1"));
        stopping.send(failover("uid-2"));

        assertThat(stopping.delivered("uid-2")).isNotDone();
        assertThat(retries.shutdownNow()).as("tries waiting: only the running instance's").hasSize(1);
    }

    @Test
    void aSendThatThrowsIsTriedAgainLikeOneThatFailed() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        EventDelivery delivery = new EventDelivery(event -> {
            if (tries.incrementAndGet() == 1) {
                throw new IllegalStateException("the channel is not ready");
            }
            return CompletableFuture.completedFuture(null);
        }, retries.executor(), AT_ONCE, () -> false);

        delivery.send(failover("uid-1")).get(10, TimeUnit.SECONDS);

        assertThat(tries).hasValue(2);
    }
}
