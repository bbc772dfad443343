package dev.muster.statussync.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;

/** What status sync's member caches keep of every object's metadata: who it is, which version, when made and deleted. */
final class KeptMetadata {

    private KeptMetadata() {
    }

    /** A new metadata with the object's identity, version and timestamps; labels and annotations are each cache's choice. */
    static ObjectMeta of(ObjectMeta metadata) {
        ObjectMeta kept = new ObjectMeta();
        kept.setNamespace(metadata.getNamespace() == null ? null : metadata.getNamespace().intern());
        kept.setName(metadata.getName());
        kept.setUid(metadata.getUid());
        kept.setResourceVersion(metadata.getResourceVersion());
        kept.setCreationTimestamp(metadata.getCreationTimestamp());
        kept.setDeletionTimestamp(metadata.getDeletionTimestamp());
        return kept;
    }
}
