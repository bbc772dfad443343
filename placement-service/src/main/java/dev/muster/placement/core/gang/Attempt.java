package dev.muster.placement.core.gang;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.JobEvent;
import dev.muster.model.job.TopologyDomain;

/**
 * A job being bound to one cluster; {@code failed} holds the clusters already tried for it and why they failed. The
 * deadline is, while reserving, when the reservations must be confirmed by; while creating, when a creation that got
 * no answer is asked for again (none while an answer is awaited). {@code unanswered} counts such creations.
 */
record Attempt(JobEvent admitted, String cluster, String reservationGroup, List<String> reservations, Map<String, String> plan,
               boolean reserving, Instant deadline, Map<String, String> failed, TopologyDomain domain, int unanswered) {

    String uid() {
        return admitted.job().uid();
    }

    Attempt creating(Instant askAgainAt, int unansweredSoFar) {
        return new Attempt(admitted, cluster, reservationGroup, reservations, plan, false, askAgainAt, failed, domain, unansweredSoFar);
    }

    /** Whether this attempt asked for the reservation on the cluster. */
    boolean reserved(String onCluster, String reservation) {
        return cluster.equals(onCluster) && reservations.contains(reservation);
    }
}
