package dev.muster.statussync.kubernetes;

import java.util.Optional;

import dev.muster.fleetclient.ReducedItemStore;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The member PyTorchJob informer's cache, keeping of each job its metadata and status, which is all status sync
 * reads of a member's jobs (whose copy it is, its placement generation and failover policy, its state): the spec's
 * pod templates are most of a job, and a member runs thousands. The view of one copy in full reads the member itself.
 * <p>
 * Jobs are read raw: a member holds its own users' jobs too, and one whose fields do not match their types must
 * not stop the watch of every job on the member. {@link #typed} reads what status sync needs of one, or says it cannot.
 */
public final class MemberJobCache extends ReducedItemStore.OfSameKind<GenericKubernetesResource> {

    private static final String STATUS = "status";

    public MemberJobCache() {
        super(MemberJobCache::reduced);
    }

    /** The job with its metadata and status only; both are shared with the job given, not copied. */
    public static GenericKubernetesResource reduced(GenericKubernetesResource job) {
        ObjectMeta metadata = job.getMetadata();
        ObjectMeta keptMetadata = KeptMetadata.of(metadata);
        keptMetadata.setLabels(metadata.getLabels());
        keptMetadata.setAnnotations(metadata.getAnnotations());
        GenericKubernetesResource kept = new GenericKubernetesResource();
        kept.setApiVersion(job.getApiVersion());
        kept.setKind(job.getKind());
        kept.setMetadata(keptMetadata);
        Object status = job.getAdditionalProperties().get(STATUS);
        if (status != null) {
            kept.setAdditionalProperty(STATUS, status);
        }
        return kept;
    }

    /** The job's metadata and status as a PyTorchJob; empty when its status cannot be read as a PyTorchJob's. */
    public static Optional<PyTorchJob> typed(GenericKubernetesResource job) {
        PyTorchJob typed = new PyTorchJob();
        typed.setMetadata(job.getMetadata());
        Object status = job.getAdditionalProperties().get(STATUS);
        try {
            typed.setStatus(status == null ? null : MusterJson.json().convertValue(status, PyTorchJobStatus.class));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(typed);
    }
}
