package dev.muster.queue.kubernetes;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * The PyTorchJob informer's cache, keeping of each fleet job only what says which job it is. The informer hands
 * full objects to {@code onAdd}; a cached one is needed only for a deletion seen at a re-list, and that needs
 * the job's name and event UID, not its pod templates: a parsed job takes about 10 KiB, this a few hundred bytes.
 */
public final class JobIdentityStore implements ItemStore<PyTorchJob> {

    /** What a deletion needs: the name, the UIDs {@link FleetJobs#eventUid} reads, and the version informers compare. */
    private record Identity(String namespace, String name, String uid, String resourceVersion, String submittedVia, String fleetJobUid) {

        static Identity of(PyTorchJob job) {
            Map<String, String> annotations = job.getMetadata().getAnnotations();
            Map<String, String> labels = job.getMetadata().getLabels();
            return new Identity(job.getMetadata().getNamespace(), job.getMetadata().getName(), job.getMetadata().getUid(),
                    job.getMetadata().getResourceVersion(), annotations == null ? null : annotations.get(FleetJobs.SUBMITTED_VIA),
                    labels == null ? null : labels.get(MemberJobs.FLEET_JOB_UID));
        }

        PyTorchJob job() {
            ObjectMetaBuilder metadata = new ObjectMetaBuilder().withNamespace(namespace).withName(name).withUid(uid)
                    .withResourceVersion(resourceVersion);
            if (submittedVia != null) {
                metadata.addToAnnotations(FleetJobs.SUBMITTED_VIA, submittedVia);
            }
            if (fleetJobUid != null) {
                metadata.addToLabels(MemberJobs.FLEET_JOB_UID, fleetJobUid);
            }
            PyTorchJob job = new PyTorchJob();
            job.setMetadata(metadata.build());
            return job;
        }
    }

    private final Map<String, Identity> identities = new ConcurrentHashMap<>();

    @Override
    public String getKey(PyTorchJob job) {
        return Cache.metaNamespaceKeyFunc(job);
    }

    @Override
    public PyTorchJob put(String key, PyTorchJob job) {
        return restore(identities.put(key, Identity.of(job)));
    }

    @Override
    public PyTorchJob remove(String key) {
        return restore(identities.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return identities.keySet().stream();
    }

    @Override
    public Stream<PyTorchJob> values() {
        return identities.values().stream().map(Identity::job);
    }

    @Override
    public int size() {
        return identities.size();
    }

    @Override
    public PyTorchJob get(String key) {
        return restore(identities.get(key));
    }

    @Override
    public boolean isFullState() {
        return false;
    }

    private static PyTorchJob restore(Identity identity) {
        return identity == null ? null : identity.job();
    }
}
