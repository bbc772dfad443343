package dev.muster.model.inventory;

import java.util.List;
import java.util.Objects;

import dev.muster.model.job.MemberJobs;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.Reservations;
import dev.muster.model.resource.PodRequests;
import dev.muster.model.resource.ResourceList;

/**
 * What placement needs to know of one member reservation.
 *
 * @param phase         {@code Pending}, {@code Available}, {@code Succeeded} or {@code Failed}
 * @param node          where it holds capacity, once Available
 * @param request       what it holds in all, one {@code pods} slot included
 * @param currentOwners the pods using it, as {@code namespace/name}
 * @param fleetJobUid   the fleet job Muster made it for, or null for a reservation Muster did not make
 * @param podOwners     the pods named as its owners, as {@code namespace/name}: the pods it was made for
 */
public record ReservationSnapshot(String name, String phase, String node, ResourceList request, List<String> currentOwners,
                                  String fleetJobUid, List<String> podOwners) {

    public ReservationSnapshot {
        Objects.requireNonNull(name, "name");
        request = request == null ? ResourceList.empty() : request;
        currentOwners = currentOwners == null ? List.of() : List.copyOf(currentOwners);
        podOwners = podOwners == null ? List.of() : List.copyOf(podOwners);
    }

    /** A reservation Muster did not make. */
    public ReservationSnapshot(String name, String phase, String node, ResourceList request, List<String> currentOwners) {
        this(name, phase, node, request, currentOwners, null, List.of());
    }

    public static ReservationSnapshot of(Reservation reservation) {
        java.util.Map<String, String> labels = reservation.getMetadata().getLabels();
        String fleetJobUid = labels != null && MemberJobs.MANAGED_BY_MUSTER.equals(labels.get(MemberJobs.MANAGED_BY))
                ? labels.get(MemberJobs.FLEET_JOB_UID) : null;
        return new ReservationSnapshot(reservation.getMetadata().getName(), reservation.phase(),
                reservation.getStatus() == null ? null : reservation.getStatus().nodeName(),
                PodRequests.onNode(Reservations.podSpec(reservation)),
                reservation.getStatus() == null ? List.of() : reservation.getStatus().currentOwners().stream()
                        .map(owner -> owner.getNamespace() + "/" + owner.getName()).toList(), fleetJobUid,
                reservation.getSpec() == null ? List.of() : reservation.getSpec().owners().stream().filter(owner -> owner.object() != null)
                        .map(owner -> owner.object().getNamespace() + "/" + owner.object().getName()).toList());
    }


    /** Whether it holds capacity on a node now. */
    public boolean isHolding() {
        return Reservation.AVAILABLE.equals(phase) && node != null;
    }

    /**
     * What it keeps from every pod but its owners: its request less what its current owner pods on its node
     * already take (they count as bound pods), never below zero; nothing unless {@link #isHolding}.
     *
     * @param unfinishedPods the cluster's bound, unfinished pods by {@code namespace/name}
     */
    public ResourceList held(java.util.Map<String, PodSnapshot> unfinishedPods) {
        if (!isHolding()) {
            return ResourceList.empty();
        }
        ResourceList held = request;
        for (String owner : currentOwners) {
            PodSnapshot pod = unfinishedPods.get(owner);
            if (pod != null && node.equals(pod.node())) {
                held = held.minus(pod.request());
            }
        }
        return held.atLeastZero();
    }
}
