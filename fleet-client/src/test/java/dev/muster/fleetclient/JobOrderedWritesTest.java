package dev.muster.fleetclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class JobOrderedWritesTest {

    @Test
    void oneJobsWritesLandInTheOrderHandedIn() {
        List<Integer> landed = new CopyOnWriteArrayList<>();
        try (JobOrderedWrites writes = new JobOrderedWrites(8, "test-writes")) {
            CompletableFuture<?>[] all = IntStream.range(0, 200)
                    .mapToObj(index -> writes.submit("default/job-" + index % 3, () -> landed.add(index)))
                    .toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(all).orTimeout(10, TimeUnit.SECONDS).join();
        }
        for (int job = 0; job < 3; job++) {
            int of = job;
            assertThat(landed.stream().filter(index -> index % 3 == of).toList()).isSorted().hasSize(of == 2 ? 66 : 67);
        }
    }

    @Test
    void aJobWaitingForTheFleetApiDoesNotHoldUpAnotherJobsWrites() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        try (JobOrderedWrites writes = new JobOrderedWrites(8, "test-writes")) {
            String slow = "default/slow";
            String other = IntStream.range(0, 100).mapToObj(index -> "default/other-" + index)
                    .filter(key -> Math.floorMod(key.hashCode(), 8) != Math.floorMod(slow.hashCode(), 8)).findFirst().orElseThrow();
            CompletableFuture<Void> waiting = writes.submit(slow, () -> awaitQuietly(answer));

            writes.submit(other, () -> { }).get(10, TimeUnit.SECONDS);

            assertThat(waiting).isNotDone();
            answer.countDown();
            waiting.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aStatusDecidedAgainBeforeItsWriteRanIsWrittenOnlyAsTheLatest() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();
        try (JobOrderedWrites writes = new JobOrderedWrites(1, "test-writes")) {
            writes.submit("default/job", () -> awaitQuietly(answer));
            writes.submitLatest("default/job", "Created", written::add);
            writes.submit("default/job", () -> written.add("event"));
            writes.submitLatest("default/job", "Running", written::add);
            CompletableFuture<Void> last = writes.submitLatest("default/other", "Created", written::add);

            answer.countDown();
            last.get(10, TimeUnit.SECONDS);

            writes.submitLatest("default/job", "Succeeded", written::add).get(10, TimeUnit.SECONDS);
        }
        assertThat(written).containsExactly("event", "Running", "Created", "Succeeded");
    }

    @Test
    void aLaterWriteOfOneKindMakesOnlyEarlierOnesOfThatKindMootAndAllStayInOrder() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();
        try (JobOrderedWrites writes = new JobOrderedWrites(1, "test-writes")) {
            writes.submit("default/job", () -> awaitQuietly(answer));
            writes.submitLatest("default/job", "Created", written::add);
            writes.submitLatest("default/job", "unit", "unit Enqueued", written::add);
            writes.submit("default/job", () -> written.add("event"));
            writes.submitLatest("default/job", "unit", "unit Dequeued", written::add);
            CompletableFuture<Void> last = writes.submitLatest("default/job", "unit", "unit Running", written::add);

            answer.countDown();
            last.get(10, TimeUnit.SECONDS);
        }
        assertThat(written).containsExactly("Created", "event", "unit Running");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void atLeastOneLane() {
        assertThatThrownBy(() -> new JobOrderedWrites(0, "test-writes")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("writes need at least one lane, got 0");
    }

    @Test
    void aWriteThatFailsInPassingIsTriedAgainAndTheWritesAfterItWaitForIt() throws Exception {
        List<String> landed = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
        JobOrderedWrites.RetryPolicy passing = new JobOrderedWrites.RetryPolicy(failure -> failure instanceof IllegalStateException,
                java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(40));
        try (JobOrderedWrites writes = new JobOrderedWrites(1, "test-writes", passing)) {
            CompletableFuture<Void> first = writes.submit("default/job", () -> {
                if (tries.incrementAndGet() < 4) {
                    throw new IllegalStateException("the API server does not answer");
                }
                landed.add("status");
            });
            CompletableFuture<Void> second = writes.submit("default/job", () -> landed.add("event"));
            CompletableFuture<Void> refused = writes.submit("default/other", () -> {
                throw new IllegalArgumentException("422: invalid");
            });

            CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalArgumentException.class);
        }
        assertThat(tries).hasValue(4);
        assertThat(landed).containsExactly("status", "event");
    }

    @Test
    void aStatusTriedAgainIsDroppedOnceALaterOneIsHandedIn() throws Exception {
        List<String> written = new CopyOnWriteArrayList<>();
        CountDownLatch failing = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        JobOrderedWrites.RetryPolicy passing = new JobOrderedWrites.RetryPolicy(failure -> true, java.time.Duration.ofMillis(50),
                java.time.Duration.ofMillis(50));
        try (JobOrderedWrites writes = new JobOrderedWrites(1, "test-writes", passing)) {
            writes.submitLatest("default/job", "Created", status -> {
                if (down.get()) {
                    failing.countDown();
                    throw new IllegalStateException("down");
                }
                written.add(status);
            });
            failing.await(10, TimeUnit.SECONDS);
            CompletableFuture<Void> running = writes.submitLatest("default/job", "Running", written::add);
            down.set(false);

            running.get(10, TimeUnit.SECONDS);
        }
        assertThat(written).containsExactly("Running");
    }
    /**
     * A clean stop cuts short what is in flight and leaves what is queued: none of it is done, so none of it may look
     * done or failed to a caller that acknowledges its input once the writes are (status sync lost a Kafka job's fleet
     * object this way: the creation interrupted by a restart completed as failed, and its record was acknowledged).
     */
    @Test
    void writesInFlightQueuedOrHandedInWhenTheWritesAreClosedNeverComplete() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        JobOrderedWrites.RetryPolicy passing = new JobOrderedWrites.RetryPolicy(failure -> false, java.time.Duration.ofMillis(10),
                java.time.Duration.ofMillis(10));
        JobOrderedWrites writes = new JobOrderedWrites(1, "test-writes", passing);
        CompletableFuture<Void> inFlight = writes.submit("default/job", () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                // as an HTTP client's call does when its thread is interrupted
                throw new IllegalStateException("An error has occurred.", e);
            }
        });
        CompletableFuture<Void> queued = writes.submit("default/job", () -> { });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        writes.close();
        CompletableFuture<Void> after = writes.submit("default/other", () -> { });

        assertThat(CompletableFuture.anyOf(inFlight, queued, after).completeOnTimeout("none", 500, TimeUnit.MILLISECONDS).get())
                .isEqualTo("none");
    }
}
