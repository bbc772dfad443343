package dev.muster.statussync.kubernetes;

import java.util.function.Function;

import dev.muster.model.event.MemberEventData;
import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.statussync.core.mirror.MirrorDecisions;

/** Where a member's watch sends what it observes: inventory reports for placement, and observations for the job mirror. */
public interface MemberObserver {

    /** An inventory change, for {@link dev.muster.model.event.Topics#INVENTORY}. */
    void inventory(MemberEventData data);

    /** An observation the job mirror judges; the decisions it leads to are carried out. */
    void mirror(Function<JobMirror, MirrorDecisions> observation);
}
