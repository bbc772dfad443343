package dev.muster.model.job;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;


import dev.muster.model.json.Manifests;
import dev.muster.model.policy.FailoverPolicy;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The copy of a fleet job that placement creates on a member cluster, and the marks that tie it to the fleet:
 * who owns it (so a restarted placement adopts what it finds rather than creating a second copy), the gang
 * the member's scheduler binds all at once, and the reservations its pods use.
 */
public final class MemberJobs {

    /** Marks a member job as placed and owned by Muster: the seed's {@code ADOPTION Y}. */
    public static final String MANAGED_BY = "muster.dev/managed-by";
    public static final String MANAGED_BY_MUSTER = "muster";
    /** The fleet job's UID on its member copy. */
    public static final String FLEET_JOB_UID = "muster.dev/fleet-job-uid";
    /** The name prefix of the reservations the member job's pods use, when it has any. */
    public static final String RESERVATION = "muster.dev/reservation";
    /**
     * Which placement of the fleet job made this copy: 0 first, one more after each failover. Of two copies of
     * one fleet job, the older placement's is the one to purge.
     */
    public static final String PLACEMENT_GENERATION = "muster.dev/placement-generation";
    /**
     * When the queue admitted the job for the admission this copy runs under, by the queue's clock. Status sync reads
     * a preemption on another topic than the member's copies, possibly after the job was admitted and placed again: a
     * preemption decided before this time was of an earlier admission and does not stop this copy.
     */
    public static final String ADMITTED_AT = "muster.dev/admitted-at";
    /** The failover toleration of the job's policy, in seconds; absent when the policy asks for no failover. */
    public static final String FAILOVER_TOLERATION = "muster.dev/failover-toleration-seconds";
    /** The failover purge mode of the job's policy ({@code Immediately}, {@code Graciously}, {@code Never}). */
    public static final String FAILOVER_PURGE_MODE = "muster.dev/failover-purge-mode";
    /** The pod-group name label, as the member's coscheduling scheduler reads it. */
    public static final String POD_GROUP = "pod-group.scheduling.sigs.k8s.io/name";
    /** How many pods of the group must be placed together: all of them. */
    public static final String MIN_AVAILABLE = "pod-group.scheduling.sigs.k8s.io/min-available";

    private MemberJobs() {
    }

    /**
     * The member copy of a fleet job: same name, namespace and spec, with Muster's marks and no fleet status.
     * The copy carries what status sync needs to judge it (its placement generation and failover policy), so
     * that judging needs nothing but the member's own objects, after any restart.
     */
    public static PyTorchJob forMember(PyTorchJob fleetJob, String fleetUid, String reservation, int generation,
                                       Optional<FailoverPolicy> failover) {
        return forMember(fleetJob, fleetUid, reservation, generation, failover, null);
    }

    /** The member copy of a fleet job placed under the admission made at {@code admittedAt} (null: not said). */
    public static PyTorchJob forMember(PyTorchJob fleetJob, String fleetUid, String reservation, int generation,
                                       Optional<FailoverPolicy> failover, Instant admittedAt) {
        PyTorchJob copy = Manifests.copy(fleetJob);
        ObjectMeta source = fleetJob.getMetadata();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(source.getName());
        metadata.setNamespace(source.getNamespace());
        Map<String, String> labels = new HashMap<>(source.getLabels() == null ? Map.of() : source.getLabels());
        labels.put(MANAGED_BY, MANAGED_BY_MUSTER);
        labels.put(FLEET_JOB_UID, fleetUid);
        labels.put(POD_GROUP, source.getName());
        labels.put(MIN_AVAILABLE, String.valueOf(GangPod.of(fleetJob).size()));
        metadata.setLabels(labels);
        Map<String, String> annotations = new HashMap<>(source.getAnnotations() == null ? Map.of() : source.getAnnotations());
        annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
        if (reservation != null) {
            annotations.put(RESERVATION, reservation);
        }
        annotations.put(PLACEMENT_GENERATION, String.valueOf(generation));
        if (admittedAt != null) {
            annotations.put(ADMITTED_AT, admittedAt.toString());
        } else {
            annotations.remove(ADMITTED_AT);
        }
        failover.ifPresent(policy -> {
            annotations.put(FAILOVER_TOLERATION, String.valueOf(policy.toleration().toSeconds()));
            annotations.put(FAILOVER_PURGE_MODE, policy.purgeMode().value());
        });
        metadata.setAnnotations(annotations);
        copy.setMetadata(metadata);
        copy.setStatus(null);
        // The pods carry the fleet job's mark too, so that a reclaim finds every one of them, terminating or not.
        copy.getSpec().pytorchReplicaSpecs().values().forEach(replica -> {
            ObjectMeta template = replica.template().getMetadata() == null ? new ObjectMeta() : replica.template().getMetadata();
            Map<String, String> podLabels = new HashMap<>(template.getLabels() == null ? Map.of() : template.getLabels());
            podLabels.put(MANAGED_BY, MANAGED_BY_MUSTER);
            podLabels.put(FLEET_JOB_UID, fleetUid);
            template.setLabels(podLabels);
            replica.template().setMetadata(template);
        });
        return copy;
    }

    /** Whether a member job was created by Muster for this fleet job. */
    public static boolean isOwnedBy(PyTorchJob memberJob, String fleetUid) {
        Map<String, String> labels = memberJob.getMetadata().getLabels();
        return labels != null && MANAGED_BY_MUSTER.equals(labels.get(MANAGED_BY)) && fleetUid.equals(labels.get(FLEET_JOB_UID));
    }

    /** The fleet job UID a member copy belongs to, or empty for a job Muster does not manage. */
    public static Optional<String> fleetUid(io.fabric8.kubernetes.api.model.HasMetadata memberJob) {
        Map<String, String> labels = memberJob.getMetadata().getLabels();
        if (labels == null || !MANAGED_BY_MUSTER.equals(labels.get(MANAGED_BY))) {
            return Optional.empty();
        }
        return Optional.ofNullable(labels.get(FLEET_JOB_UID));
    }

    /** The placement generation of a member copy; 0 for copies made before generations were marked. */
    public static int generation(PyTorchJob memberJob) {
        String value = annotation(memberJob, PLACEMENT_GENERATION);
        try {
            return value == null ? 0 : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** When the admission a member copy runs under was made; empty for copies that do not say (or say it unreadably). */
    public static Optional<Instant> admittedAt(PyTorchJob memberJob) {
        String value = annotation(memberJob, ADMITTED_AT);
        try {
            return value == null ? Optional.empty() : Optional.of(Instant.parse(value));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The failover policy a member copy was placed with; empty when it has none (or an unreadable one). */
    public static Optional<FailoverPolicy> failover(PyTorchJob memberJob) {
        String seconds = annotation(memberJob, FAILOVER_TOLERATION);
        Optional<FailoverPolicy.PurgeMode> mode = FailoverPolicy.PurgeMode.of(annotation(memberJob, FAILOVER_PURGE_MODE));
        if (seconds == null || mode.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new FailoverPolicy(Duration.ofSeconds(Long.parseLong(seconds)), mode.get()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String annotation(PyTorchJob memberJob, String key) {
        Map<String, String> annotations = memberJob.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }
}
