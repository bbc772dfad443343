package dev.muster.model.job;

import java.util.HashMap;
import java.util.Map;

import dev.muster.model.json.Manifests;
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
    /** The pod-group name label, as the member's coscheduling scheduler reads it. */
    public static final String POD_GROUP = "pod-group.scheduling.sigs.k8s.io/name";
    /** How many pods of the group must be placed together: all of them. */
    public static final String MIN_AVAILABLE = "pod-group.scheduling.sigs.k8s.io/min-available";

    private MemberJobs() {
    }

    /** The member copy of a fleet job: same name, namespace and spec, with Muster's marks and no fleet status. */
    public static PyTorchJob forMember(PyTorchJob fleetJob, String fleetUid, String reservation) {
        PyTorchJob copy = Manifests.read(Manifests.toJson(fleetJob), PyTorchJob.class);
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
        metadata.setAnnotations(annotations);
        copy.setMetadata(metadata);
        copy.setStatus(null);
        return copy;
    }

    /** Whether a member job was created by Muster for this fleet job. */
    public static boolean isOwnedBy(PyTorchJob memberJob, String fleetUid) {
        Map<String, String> labels = memberJob.getMetadata().getLabels();
        return labels != null && MANAGED_BY_MUSTER.equals(labels.get(MANAGED_BY)) && fleetUid.equals(labels.get(FLEET_JOB_UID));
    }
}
