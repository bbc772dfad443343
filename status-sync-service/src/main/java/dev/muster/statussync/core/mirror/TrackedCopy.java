package dev.muster.statussync.core.mirror;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import dev.muster.model.job.PyTorchJobStatus;

/** What the mirror remembers of one copy between observations; {@link JobMirror}'s alone to change. */
final class TrackedCopy {

    MemberCopy copy;
    Instant observedAt;
    Instant unhealthySince;
    boolean departed;
    /** Preempted for a reclaim: placement stops it; it is neither judged nor purged here. */
    boolean preempted;
    /** Known only from the state topic: not seen on its member since status sync started; its status unknown. */
    boolean remembered;
    boolean problemReported;
    String reportedState;
    boolean finishedReported;
    PyTorchJobStatus writtenStatus;
    Instant purgeAskedAt;
    /** When the copy was seen gone from its member while it was the job's, with nothing to explain it yet. */
    Instant deletedOnMemberAt;
    /** The restart count last seen of each pod of the copy, by pod name. */
    final Map<String, Integer> restarts = new HashMap<>();

    TrackedCopy(MemberCopy copy, Instant observedAt) {
        this.copy = copy;
        this.observedAt = observedAt;
    }

    boolean awaitsTime() {
        return unhealthySince != null || purgeAskedAt != null;
    }
}
