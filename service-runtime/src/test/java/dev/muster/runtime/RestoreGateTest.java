package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RestoreGateTest {

    private final AtomicInteger restores = new AtomicInteger();

    /** A gate whose restore fails its first {@code failures} times, the state topic unreachable, and then works. */
    private RestoreGate failingFirst(int failures) {
        AtomicInteger failuresLeft = new AtomicInteger(failures);
        return new RestoreGate(() -> {
            if (failuresLeft.getAndDecrement() > 0) {
                throw new IllegalStateException("the state topic is unreachable");
            }
            restores.incrementAndGet();
        });
    }

    @Test
    void givenTheInputsBetweenBatchesTheServiceRestoresAtOnce() {
        RestoreGate gate = new RestoreGate(restores::incrementAndGet);

        gate.assigned();

        assertThat(restores).hasValue(1);
    }

    @Test
    void givenTheInputsDuringABatchTheServiceRestoresOnlyOnceThatBatchHasEnded() {
        RestoreGate gate = new RestoreGate(restores::incrementAndGet);
        gate.batchStarting();

        gate.assigned();
        assertThat(restores).as("restored while the batch's transaction is open").hasValue(0);

        gate.batchEnded();
        assertThat(restores).hasValue(1);
        gate.batchStarting();
        gate.batchEnded();
        assertThat(restores).as("restored once").hasValue(1);
    }

    @Test
    void standingByBeforeTheBatchEndedTheServiceDoesNotRestore() {
        RestoreGate gate = new RestoreGate(restores::incrementAndGet);
        gate.batchStarting();
        gate.assigned();

        gate.standingBy();
        gate.batchEnded();

        assertThat(restores).hasValue(0);
    }

    @Test
    void aRestoreThatFailedAfterABatchIsTriedAgainBeforeTheNextAndFailsItUntilItWorks() {
        RestoreGate gate = failingFirst(2);
        gate.batchStarting();
        gate.assigned();

        gate.batchEnded();
        assertThatThrownBy(gate::batchStarting).hasMessageContaining("unreachable");
        gate.batchStarting();

        assertThat(restores).hasValue(1);
    }

    @Test
    void aRestoreThatFailedWhenGivenTheInputsIsTriedAgainBeforeTheFirstBatchNeverSkipped() {
        RestoreGate gate = failingFirst(1);

        gate.assigned();
        assertThat(restores).hasValue(0);
        gate.batchStarting();

        assertThat(restores).as("restored before the first batch was decided").hasValue(1);
    }

    @Test
    void aFailedRestoreAfterAnAbortedBatchIsRunBeforeTheNextBatch() {
        RestoreGate gate = new RestoreGate(restores::incrementAndGet);
        gate.batchStarting();

        gate.restoreFailed(new IllegalStateException("the state topic is unreachable"));
        gate.batchEnded();

        assertThat(restores).as("restored once the aborted batch had ended").hasValue(1);
    }

    @Test
    void noBatchStartsWhileARestoreRuns() throws Exception {
        CountDownLatch restoring = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        RestoreGate gate = new RestoreGate(() -> {
            restoring.countDown();
            try {
                assertThat(finish.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            restores.incrementAndGet();
        });
        CompletableFuture<Void> assignment = CompletableFuture.runAsync(gate::assigned);
        assertThat(restoring.await(30, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Integer> batch = CompletableFuture.supplyAsync(() -> {
            gate.batchStarting();
            return restores.get();
        });
        assertThat(batch).as("a batch started during the restore").isNotDone();
        finish.countDown();

        assertThat(batch.get(30, TimeUnit.SECONDS)).as("restores seen by the batch").isEqualTo(1);
        assignment.get(30, TimeUnit.SECONDS);
    }
}
