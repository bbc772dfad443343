package dev.muster.placement.core.gang;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobRef;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.eviction.Evictions;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.reservation.ReservationReleases;
import dev.muster.placement.core.reservation.ReservationReleases.Held;
import dev.muster.placement.core.reservation.ReservationReleases.Unused;

/**
 * Finds the reservations Muster made that hold capacity nobody will use, and releases them. Of a job bound elsewhere, or
 * bound to another placement (an earlier cluster or generation), or whose pod is bound without it to another node: at
 * once. Of a bound job whose pod runs on its node without owning it (the scheduler writes the pod's binding and the
 * reservation's owner one after the other), or of a job not being bound there at all (an attempt given up on whose
 * release never reached the member, a job placement no longer tracks): after the reservation timeout. Otherwise the
 * capacity counts twice, on the member and for placement, until the reservation's TTL. One not gone a reservation
 * timeout after it was asked for is asked for again.
 */
final class StrandedReservations {

    private final ReservationReleases releases;
    private final Map<String, ClusterInventory> clusters;
    private final TrackedJobs jobs;
    private final Evictions evictions;

    /** @param clusters the members' inventories as placement sees them, read as they change */
    StrandedReservations(Duration reservationTimeout, Map<String, ClusterInventory> clusters, TrackedJobs jobs, Evictions evictions) {
        this.releases = new ReservationReleases(reservationTimeout);
        this.clusters = clusters;
        this.jobs = jobs;
        this.evictions = evictions;
    }

    /** Releases the reservation the member shows if nobody will use it, now or once its grace is over. */
    Decisions releaseIfStranded(String clusterName, ReservationSnapshot reservation, Instant now) {
        String uid = reservation.fleetJobUid();
        return releases.releaseIfUnused(new Held(clusterName, reservation.name()), unused(clusterName, reservation), () -> {
            JobRef bound = jobs.boundJob(uid);
            return bound != null ? bound : jobs.jobRef(uid);
        }, now);
    }

    /** Releases these reservations of the job on the cluster, and asks again until they are gone. */
    Decisions release(String cluster, JobRef job, List<String> reservations, Instant now) {
        return releases.release(cluster, job, reservations, now);
    }

    /**
     * Looks at every reservation the members show, once per reservation timeout, for ones nothing uses that no event
     * brings up again: those left by a release that did not reach the member, or by a job placement forgot meanwhile.
     */
    Decisions sweep(Instant now) {
        if (!releases.sweepDue(now)) {
            return Decisions.none();
        }
        Decisions decisions = Decisions.none();
        for (Map.Entry<String, ClusterInventory> cluster : clusters.entrySet()) {
            for (ReservationSnapshot reservation : List.copyOf(cluster.getValue().reservations())) {
                decisions = decisions.and(releaseIfStranded(cluster.getKey(), reservation, now));
            }
        }
        return decisions;
    }

    /** Reservations whose pod runs on their node without them, looked at again once the grace is over. */
    Decisions releaseUnusedAfterGrace(Instant now) {
        Decisions decisions = Decisions.none();
        for (Held held : releases.inGrace()) {
            ClusterInventory inventory = clusters.get(held.cluster());
            Optional<ReservationSnapshot> reservation = inventory == null ? Optional.empty() : inventory.reservation(held.name());
            if (reservation.isEmpty()) {
                releases.notShown(held);
            } else {
                decisions = decisions.and(releaseIfStranded(held.cluster(), reservation.get(), now));
            }
        }
        return decisions;
    }

    /** The member shows the reservation no more. */
    void gone(String cluster, String reservation) {
        releases.forget(new Held(cluster, reservation));
    }

    void memberLeft(String cluster) {
        releases.memberLeft(cluster);
    }

    private Unused unused(String clusterName, ReservationSnapshot reservation) {
        String uid = reservation.fleetJobUid();
        if (uid == null || Reservation.SUCCEEDED.equals(reservation.phase()) || Reservation.FAILED.equals(reservation.phase())) {
            return Unused.NO;
        }
        String boundTo = jobs.boundTo(uid);
        if (boundTo == null) {
            Attempt attempt = jobs.attempt(uid);
            boolean reservedFor = attempt != null && attempt.reserved(clusterName, reservation.name());
            return reservedFor || evictions.eviction(uid).isPresent() ? Unused.NO : Unused.AFTER_GRACE;
        }
        String group = jobs.boundGroup(uid);
        if (!clusterName.equals(boundTo) || group == null || !reservation.name().startsWith(group + "-")) {
            return Unused.NOW;
        }
        if (!reservation.isHolding() || !reservation.currentOwners().isEmpty() || reservation.podOwners().isEmpty()) {
            return Unused.NO;
        }
        ClusterInventory inventory = clusters.get(clusterName);
        boolean elsewhere = false;
        for (String owner : reservation.podOwners()) {
            Optional<String> node = inventory.boundNode(owner);
            if (node.isEmpty()) {
                return Unused.NO;
            }
            elsewhere |= !node.get().equals(reservation.node());
        }
        return elsewhere ? Unused.NOW : Unused.AFTER_GRACE;
    }
}
