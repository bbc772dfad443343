package dev.muster.statussync.kubernetes;

import dev.muster.fleetclient.ReducedItemStore;
import dev.muster.model.job.PyTorchJob;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The member PyTorchJob informer's cache, keeping of each job its metadata and status, which is all status sync
 * reads of a member's jobs (whose copy it is, its placement generation and failover policy, its state): the spec's
 * pod templates are most of a parsed job, about 13 KiB of fabric8 objects, and a member runs thousands. The view of
 * one copy in full reads the member itself.
 */
public final class MemberJobCache extends ReducedItemStore.OfSameKind<PyTorchJob> {

    public MemberJobCache() {
        super(MemberJobCache::reduced);
    }

    /** The job with its metadata and status only; both are shared with the job given, not copied. */
    public static PyTorchJob reduced(PyTorchJob job) {
        ObjectMeta metadata = job.getMetadata();
        ObjectMeta keptMetadata = KeptMetadata.of(metadata);
        keptMetadata.setLabels(metadata.getLabels());
        keptMetadata.setAnnotations(metadata.getAnnotations());
        PyTorchJob kept = new PyTorchJob();
        kept.setMetadata(keptMetadata);
        kept.setStatus(job.getStatus());
        return kept;
    }
}
