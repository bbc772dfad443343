package dev.muster.queue.kubernetes;

import java.util.Map;

import dev.muster.fleetclient.ReducedItemStore;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/**
 * The PyTorchJob informer's cache (of jobs read raw, see {@code FleetIngress}), keeping of each fleet job only what says which job it is. The informer hands
 * full objects to {@code onAdd}; a cached one is needed only for a deletion seen at a re-list, and that needs
 * the job's name and event UID, not its pod templates: a parsed job takes about 10 KiB, this a few hundred bytes.
 */
public final class JobIdentityStore extends ReducedItemStore<GenericKubernetesResource, JobIdentityStore.Identity> {

    /** What a deletion needs: the name, the UIDs {@link FleetJobs#eventUid} reads, and the version informers compare. */
    record Identity(String namespace, String name, String uid, String resourceVersion, String submittedVia, String fleetJobUid) {

        static Identity of(GenericKubernetesResource job) {
            Map<String, String> annotations = job.getMetadata().getAnnotations();
            Map<String, String> labels = job.getMetadata().getLabels();
            return new Identity(job.getMetadata().getNamespace(), job.getMetadata().getName(), job.getMetadata().getUid(),
                    job.getMetadata().getResourceVersion(), annotations == null ? null : annotations.get(FleetJobs.SUBMITTED_VIA),
                    labels == null ? null : labels.get(MemberJobs.FLEET_JOB_UID));
        }

        GenericKubernetesResource job() {
            ObjectMetaBuilder metadata = new ObjectMetaBuilder().withNamespace(namespace).withName(name).withUid(uid)
                    .withResourceVersion(resourceVersion);
            if (submittedVia != null) {
                metadata.addToAnnotations(FleetJobs.SUBMITTED_VIA, submittedVia);
            }
            if (fleetJobUid != null) {
                metadata.addToLabels(MemberJobs.FLEET_JOB_UID, fleetJobUid);
            }
            GenericKubernetesResource job = new GenericKubernetesResource();
            job.setApiVersion(PyTorchJob.API_VERSION);
            job.setKind(PyTorchJob.KIND);
            job.setMetadata(metadata.build());
            return job;
        }
    }

    @Override
    protected Identity keep(GenericKubernetesResource job) {
        return Identity.of(job);
    }

    @Override
    protected GenericKubernetesResource restore(Identity identity) {
        return identity.job();
    }

    @Override
    public boolean isFullState() {
        return false;
    }

}
