package dev.muster.statussync.core.member;

import java.time.Clock;
import java.util.List;
import java.util.function.Predicate;

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

    private final Predicate<String> watched;
    private final Clock clock;

    /** @param watched whether this service can watch a cluster (it has a kubeconfig for it) */
    public MemberStatusTracker(Predicate<String> watched, Clock clock) {
        this.watched = watched;
        this.clock = clock;
    }

    /** The events a consumed event leads to. */
    public List<JobEvent> handle(MusterEvent consumed) {
        if (!(consumed instanceof JobEvent event) || !(event.data() instanceof JobBound bound) || watched.test(bound.cluster())) {
            return List.of();
        }
        MemberStatusChanged unknown = new MemberStatusChanged(bound.cluster(), UNKNOWN, MEMBER_NOT_CONFIGURED,
                "member cluster \"" + bound.cluster() + "\" has no kubeconfig (muster.status-sync.members or the members directory); its jobs cannot be observed",
                null);
        return List.of(event.followUp(SOURCE, event.job(), clock.instant(), unknown));
    }
}
