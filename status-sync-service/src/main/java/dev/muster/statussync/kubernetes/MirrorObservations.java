package dev.muster.statussync.kubernetes;

import java.util.function.Function;

import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.statussync.core.mirror.MirrorDecisions;

/**
 * Where the member watches send what the job mirror must judge. The service's engine takes them and carries the
 * decisions out; the watches know only this, so the Kubernetes adapter does not depend on the rest of the service.
 */
public interface MirrorObservations {

    /** An observation of a member (or of a member leaving); the decisions it leads to are carried out. */
    void observe(Function<JobMirror, MirrorDecisions> observation);
}
