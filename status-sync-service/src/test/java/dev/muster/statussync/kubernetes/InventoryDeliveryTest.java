package dev.muster.statussync.kubernetes;

import static dev.muster.statussync.Retries.AT_ONCE;
import static dev.muster.statussync.Retries.IN_AN_HOUR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.resource.ResourceList;
import dev.muster.statussync.Retries;

/** The members' inventory reaches the broker however long it is away, each object's last report last. */
class InventoryDeliveryTest {

    @RegisterExtension
    final Retries retries = new Retries();

    private static MemberEvent running(String pod) {
        return MemberEvent.create("status-sync", Instant.EPOCH, new MemberEventData.PodReported("gpu-a",
                new PodSnapshot("team-a", pod, "node-1", ResourceList.empty(), false)));
    }

    private static MemberEvent gone(String pod) {
        return MemberEvent.create("status-sync", Instant.EPOCH, new MemberEventData.PodRemoved("gpu-a", "team-a", pod));
    }

    @Test
    void aReportTheProducerGaveUpOnIsSentAgainUntilTheBrokerHasIt() {
        AtomicInteger tries = new AtomicInteger();
        List<MemberEvent> taken = new ArrayList<>();
        InventoryDelivery delivery = new InventoryDelivery(report -> {
            if (tries.incrementAndGet() <= 3) {
                return CompletableFuture.failedFuture(new TimeoutException("expired after 120000 ms"));
            }
            taken.add(report);
            return CompletableFuture.completedFuture(null);
        }, retries.executor(), AT_ONCE, () -> false);
        MemberEvent podGone = gone("worker-0");

        delivery.send(podGone);

        await().atMost(Duration.ofSeconds(10)).until(() -> delivery.pending() == 0);
        assertThat(taken).as("the pod's end, which nothing would report again").containsExactly(podGone);
    }

    @Test
    void aReportRefusedAfterALaterOneOfTheSameObjectIsNotSentAgainAndReportsOfOtherObjectsAre() {
        List<MemberEvent> sent = new ArrayList<>();
        List<CompletableFuture<Void>> tries = new ArrayList<>();
        InventoryDelivery delivery = new InventoryDelivery(report -> {
            synchronized (sent) {
                sent.add(report);
                tries.add(new CompletableFuture<>());
                return tries.get(tries.size() - 1);
            }
        }, retries.executor(), AT_ONCE, () -> false);
        MemberEvent started = running("worker-0");
        MemberEvent other = running("worker-1");
        MemberEvent ended = gone("worker-0");

        delivery.send(started);
        delivery.send(other);
        delivery.send(ended);
        tries.get(0).completeExceptionally(new TimeoutException("expired after 120000 ms"));
        tries.get(1).completeExceptionally(new TimeoutException("expired after 120000 ms"));
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            synchronized (sent) {
                return sent.size() == 4;
            }
        });
        tries.get(2).complete(null);

        synchronized (sent) {
            assertThat(sent).as("the other pod's report sent again, the pod's start never after its end").containsExactly(started, other, ended, other);
        }
        assertThat(delivery.pending()).as("the other pod's report, sent again, is not on the broker yet").isEqualTo(1);
        tries.get(3).complete(null);
        assertThat(delivery.pending()).isZero();
    }

    @Test
    void aReportRefusedWhileTheServiceStopsIsLeftToTheNextInstance() {
        List<MemberEvent> sent = new ArrayList<>();
        InventoryDelivery delivery = new InventoryDelivery(report -> {
            sent.add(report);
            return CompletableFuture.failedFuture(new TimeoutException("expired after 120000 ms"));
        }, retries.executor(), IN_AN_HOUR, () -> true);

        delivery.send(gone("worker-0"));

        assertThat(sent).hasSize(1);
        assertThat(retries.shutdownNow()).as("no try waiting").isEmpty();
    }
}
