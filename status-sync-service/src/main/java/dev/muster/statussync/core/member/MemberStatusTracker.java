package dev.muster.statussync.core.member;

import java.time.Clock;
import java.util.List;
import java.util.Set;

import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.statussync.core.mirror.JobMirror;

/**
 * Follows bound jobs onto their member clusters. A job bound to a cluster this service has no access to
 * cannot be observed: that is reported at once as state {@code Unknown}, so the fleet never shows a stale
 * state for it.
 */
public final class MemberStatusTracker {

    public static final String SOURCE = JobMirror.SOURCE;
    public static final String UNKNOWN = "Unknown";
    public static final String MEMBER_NOT_CONFIGURED = "MemberNotConfigured";

    private final Set<String> members;
    private final Clock clock;

    /** @param members the clusters this service can watch (those with a kubeconfig) */
    public MemberStatusTracker(Set<String> members, Clock clock) {
        this.members = Set.copyOf(members);
        this.clock = clock;
    }

    /** The events a consumed event leads to. */
    public List<JobEvent> handle(MusterEvent consumed) {
        if (!(consumed instanceof JobEvent event) || !(event.data() instanceof JobBound bound) || members.contains(bound.cluster())) {
            return List.of();
        }
        MemberStatusChanged unknown = new MemberStatusChanged(bound.cluster(), UNKNOWN, MEMBER_NOT_CONFIGURED,
                "member cluster \"" + bound.cluster() + "\" has no kubeconfig in muster.status-sync.members; its jobs cannot be observed",
                null);
        return List.of(event.followUp(SOURCE, event.job(), clock.instant(), unknown));
    }
}
