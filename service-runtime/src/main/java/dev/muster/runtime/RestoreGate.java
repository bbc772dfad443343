package dev.muster.runtime;

import org.jboss.logging.Logger;

/**
 * Orders a service's restores from its compacted state topic with its batches' transactions.
 * <p>
 * A consumer given partitions runs its rebalance listener on the polling thread, and a batch's transaction needs that
 * thread to commit (SmallRye reads the consumer's group metadata there). A restore read {@code read_committed} from the
 * listener while this instance's own transaction is open waits for that transaction, which waits for the listener:
 * nothing moved until the broker aborted the transaction at {@code transaction.timeout.ms}, and the producer, its epoch
 * bumped, failed. So a restore asked for while a batch is in flight runs once that batch has ended, and no batch
 * starts while a restore runs.
 */
public final class RestoreGate {

    private static final Logger LOG = Logger.getLogger(RestoreGate.class);

    private final Runnable restore;
    private boolean batchInFlight;
    private boolean restoreDue;

    /** @param restore rebuilds the service's state from what its state topic holds; run on whichever thread asks or ends a batch */
    public RestoreGate(Runnable restore) {
        this.restore = restore;
    }

    /**
     * This instance was given the inputs: restores now, or once the batch in flight has ended. A restore that fails
     * (the state topic unreadable for now) stays due: the next batch tries it again and fails until it works, so no
     * batch is ever decided on state that was not read back, and the consumer's rebalance never sees the failure.
     */
    public synchronized void assigned() {
        if (batchInFlight) {
            LOG.info("given the inputs while a batch's transaction is open: restoring once it has ended");
            restoreDue = true;
            return;
        }
        try {
            restore.run();
        } catch (RuntimeException e) {
            restoreDue = true;
            LOG.errorf("restoring the state failed (%s); trying again before the next batch", e.toString());
        }
    }

    /** Another instance owns the inputs: a restore asked for earlier is no longer due. */
    public synchronized void standingBy() {
        restoreDue = false;
    }

    /**
     * Called by the relay before it decides a batch; waits for a restore under way, and runs one still due (a failure
     * fails the batch, which is read again).
     */
    synchronized void batchStarting() {
        restoreIfDue();
        batchInFlight = true;
    }

    /** Called by the relay once a batch's transaction has ended, either way; runs the restore that became due meanwhile. */
    synchronized void batchEnded() {
        batchInFlight = false;
        try {
            restoreIfDue();
        } catch (RuntimeException e) {
            LOG.errorf("restoring the state failed (%s); trying again before the next batch", e.toString());
        }
    }

    /**
     * The service's own restore after an aborted batch failed (its state topic unreadable for now): what it holds is no
     * longer what the log says, so a restore is due before any batch is decided again.
     */
    synchronized void restoreFailed(RuntimeException failure) {
        restoreDue = true;
        LOG.errorf("restoring the state after an aborted batch failed (%s); trying again before the next batch", failure.toString());
    }

    private void restoreIfDue() {
        if (restoreDue) {
            restore.run();
            restoreDue = false;
        }
    }
}
