package dev.muster.placement.core.binding;

import java.util.List;
import java.util.Map;

/**
 * What a member cluster holds that carries Muster's ownership mark, as found when a new owner of the placement
 * service reconciles its log with the members.
 *
 * @param reservations reservation name to the fleet job UID it was made for
 * @param jobs         member job UID ({@code muster.dev/fleet-job-uid}) to its {@code namespace/name}
 */
public record MemberHoldings(String cluster, Map<String, String> reservations, Map<String, String> jobs) {

    public MemberHoldings {
        reservations = Map.copyOf(reservations);
        jobs = Map.copyOf(jobs);
    }

    /** The reservations made for this job. */
    public List<String> reservationsOf(String uid) {
        return reservations.entrySet().stream().filter(entry -> entry.getValue().equals(uid)).map(Map.Entry::getKey).sorted().toList();
    }
}
