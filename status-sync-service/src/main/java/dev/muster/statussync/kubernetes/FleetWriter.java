package dev.muster.statussync.kubernetes;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueSpec;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.queue.QueueUnitSpec;
import dev.muster.model.queue.QueueUnitStatus;
import dev.muster.statussync.core.fleet.FleetWrite;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * Writes to the fleet API server: the fleet object of a job submitted on the Kafka path, the fleet job's status
 * (status sync is its only writer), its Kubernetes Events, its {@code QueueUnit}, and the {@code Queue} objects. Each write compares with what is there and
 * writes only a difference, so repeating one changes nothing; a job that is not on the fleet API, or was replaced
 * by another of the same name, is left alone.
 */
@ApplicationScoped
public class FleetWriter {

    /** The annotation that names the quota node a Queue stands for. */
    public static final String QUOTA_NODE = "muster.dev/quota-node";
    private static final Logger LOG = Logger.getLogger(FleetWriter.class);
    private static final int CONFLICT_RETRIES = 3;
    private static final int REMEMBERED_OBJECTS = 10_000;

    private final KubernetesClient fleet;
    private final RememberedObjects remembered = new RememberedObjects(REMEMBERED_OBJECTS);
    private final JobEvents events;
    private final JobHeadRequests heads;

    private final ConfigOutcomeWriter configOutcomes;

    FleetWriter(KubernetesClient fleet, ConfigOutcomeWriter configOutcomes) {
        this.fleet = fleet;
        this.configOutcomes = configOutcomes;
        this.events = new JobEvents(fleet, REMEMBERED_OBJECTS);
        this.heads = new JobHeadRequests(fleet);
    }

    /** Carries out one write decided from a job or configuration event. */
    public void write(FleetWrite write) {
        if (write instanceof FleetWrite.CreateJob create) {
            createJob(create);
        } else if (write instanceof FleetWrite.RecordEvent event) {
            recordEvent(event);
        } else if (write instanceof FleetWrite.SetCondition condition) {
            JobCondition only = new JobCondition(condition.type(), "True", condition.reason(), condition.message(),
                    condition.time().toString(), condition.time().toString());
            editStatus(condition.job(), current -> !condition.mayReplace(current) || current != null && current.currentCondition()
                    .filter(existing -> existing.type().equals(only.type()) && Objects.equals(existing.reason(), only.reason())
                            && Objects.equals(existing.message(), only.message())).isPresent()
                    ? current : new PyTorchJobStatus(List.of(only), null, null, null, condition.time().toString(), null));
        } else if (write instanceof FleetWrite.ObjectSeen seen) {
            remember(seen.job(), seen.object());
        } else if (write instanceof FleetWrite.PutQueueUnit unit) {
            putQueueUnit(unit);
        } else if (write instanceof FleetWrite.DeleteQueueUnit unit) {
            fleet.resources(QueueUnit.class).inNamespace(unit.job().namespace()).withName(unit.job().name()).delete();
            remembered.forgetUnit(unit.job().uid());
            remembered.forgetJob(unit.job().uid());
        } else if (write instanceof FleetWrite.DeleteKafkaJob deletion) {
            deleteKafkaJob(deletion.job());
        } else if (write instanceof FleetWrite.PutQueues queues) {
            putQueues(queues);
        } else if (write instanceof FleetWrite.ConfigOutcome outcome) {
            configOutcomes.write(outcome);
        }
    }

    /**
     * Mirrors a member copy's status onto the fleet job; whether it was written (false when it already read so, or
     * the job is not on the fleet API or was replaced by another of its name).
     */
    public boolean status(JobRef job, PyTorchJobStatus status) {
        RememberedObjects.Job known = remembered.job(job.uid());
        if (known == null) {
            return editStatus(job, current -> status);
        }
        // Status sync is the fleet status's only writer and the mirror sends it only a changed status, so it is
        // written without reading the job first. The test makes the server refuse the write unless the object is
        // still the one remembered.
        Optional<Boolean> written = patchStatus(job, known, status, false);
        return written.isPresent() ? written.get() : editStatus(job, current -> status);
    }

    /**
     * Writes a status decided from the one the job showed: over what status sync last wrote or read of it, in one
     * request, unless another version of the job is there (then read and written again, as for a job not seen before).
     */
    private boolean editStatus(JobRef job, UnaryOperator<PyTorchJobStatus> change) {
        RememberedObjects.Job known = remembered.job(job.uid());
        if (known != null && known.resourceVersion() != null) {
            PyTorchJobStatus next = change.apply(known.status());
            if (Objects.equals(next, known.status())) {
                return false;
            }
            Optional<Boolean> written = patchStatus(job, known, next, true);
            if (written.isPresent()) {
                return written.get();
            }
        }
        Resource<PyTorchJob> resource = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name());
        for (int attempt = 1; ; attempt++) {
            PyTorchJob current = resource.get();
            if (!remember(job, current)) {
                LOG.debugf("job %s: not on the fleet API (or replaced); its status is not written", job);
                return false;
            }
            PyTorchJobStatus next = change.apply(current.getStatus());
            if (Objects.equals(next, current.getStatus())) {
                return false;
            }
            current.setStatus(next);
            try {
                remember(job, fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).resource(current).updateStatus());
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == CONFLICT_RETRIES) {
                    throw e;
                }
                // Someone else changed the job since the read: read again and reapply.
            }
        }
    }

    /**
     * Replaces the job's status in one request, provided the object is still the one remembered (and, with
     * {@code sameVersion}, unchanged since). Whether it was written (false: the job is gone); empty when another
     * object or version is there, which the caller reads.
     */
    private Optional<Boolean> patchStatus(JobRef job, RememberedObjects.Job known, PyTorchJobStatus status, boolean sameVersion) {
        String patch = VersionedPatch.of(fleet.getKubernetesSerialization(), known.objectUid(), sameVersion ? known.resourceVersion() : null,
                Map.of("op", "add", "path", "/status", "value", status));
        try {
            PyTorchJob written = heads.patchStatus(job, patch);
            if (!remember(job, written)) {
                remembered.job(job.uid(), new RememberedObjects.Job(known.objectUid(), null, status));
            }
            return Optional.of(true);
        } catch (KubernetesClientException e) {
            remembered.forgetJob(job.uid());
            if (e.getCode() == 404) {
                LOG.debugf("job %s: not on the fleet API; its status is not written", job);
                return Optional.of(false);
            }
            if (e.getCode() != 409 && e.getCode() != 422) {
                throw e;
            }
            // A test failed: the name now holds another object, or another version of this one.
            return Optional.empty();
        }
    }

    /**
     * Writes the fleet object of a job submitted on the Kafka path, unless it is there already (a repeat after a restart).
     * The object's own UID when the job is shown there; empty when another job of that name is there instead.
     */
    public Optional<String> createJob(FleetWrite.CreateJob write) {
        JobRef job = write.job();
        try {
            PyTorchJob created = heads.create(job, write.manifest());
            remember(job, created);
            LOG.infof("job %s submitted on the Kafka path: written to the fleet API", job);
            return Optional.ofNullable(created).map(object -> object.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            // Written before (a repeat after a restart), or another job holds the name.
            PyTorchJob existing = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
            if (remember(job, existing)) {
                return Optional.of(existing.getMetadata().getUid());
            }
            if (existing != null) {
                LOG.warnf("job %s submitted on the Kafka path is not shown on the fleet API: another job of that name is there", job);
            }
            return Optional.empty();
        }
    }

    private void deleteKafkaJob(JobRef job) {
        PyTorchJob existing = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
        if (existing != null && FleetJobs.isKafkaSubmission(existing) && job.uid().equals(FleetJobs.eventUid(existing))) {
            fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).resource(existing).delete();
            remembered.forgetJob(job.uid());
            remembered.forgetUnit(job.uid());
            LOG.infof("job %s deleted on the Kafka path: removed from the fleet API", job);
        }
    }

    private void recordEvent(FleetWrite.RecordEvent write) {
        events.record(write, jobReference(write.job(), objectUid(write.job())));
    }

    /**
     * A job's unit is written only while the job is on the fleet API: the queue's word on a job may be read after the
     * job's deletion (another topic; a replay after a restart whose commit was lost), and a unit created then would
     * outlive its job. The unit is owned by the job, so an API server's garbage collector removes it with the job too.
     */
    private void putQueueUnit(FleetWrite.PutQueueUnit write) {
        JobRef job = write.job();
        Optional<String> objectUid = fleetObjectUid(job);
        if (objectUid.isEmpty()) {
            LOG.debugf("job %s: not on the fleet API (or replaced); its QueueUnit is not written", job);
            return;
        }
        QueueUnit unit = new QueueUnit();
        unit.setMetadata(new ObjectMetaBuilder().withName(job.name()).withNamespace(job.namespace())
                .withLabels(Map.of(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER, MemberJobs.FLEET_JOB_UID, job.uid()))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(PyTorchJob.API_VERSION).withKind(PyTorchJob.KIND)
                        .withName(job.name()).withUid(objectUid.get()).build())
                .build());
        unit.setSpec(new QueueUnitSpec(jobReference(job, objectUid.get()), write.queue(), write.demand().toQuantities(), write.priority(),
                write.priorityClassName(), Map.of()));
        QueueUnitStatus status = new QueueUnitStatus(write.phase(), write.message(), write.time().toString(),
                write.estimatedStart() == null ? null : write.estimatedStart().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), Map.of());
        boolean there = false;
        for (int attempt = 1; ; attempt++) {
            try {
                remembered.unit(job.uid(), putQueueUnit(job, unit, status, there));
                return;
            } catch (KubernetesClientException e) {
                remembered.forgetUnit(job.uid());
                if (e.getCode() != 409 && e.getCode() != 404 || attempt == CONFLICT_RETRIES) {
                    throw e;
                }
                // The unit remembered is not the one there (another instance wrote it since: read it; or it was deleted:
                // create it) and write again.
                there = e.getCode() == 409;
            }
        }
    }

    /**
     * The unit as written: created when status sync knows of none (a new job's, without reading first: one already
     * there is a conflict, read then), else over the one remembered or, when {@code there} (another is known to be
     * there), read; each write carries the version it replaces.
     */
    private QueueUnit putQueueUnit(JobRef job, QueueUnit unit, QueueUnitStatus status, boolean there) {
        Resource<QueueUnit> resource = fleet.resources(QueueUnit.class).inNamespace(job.namespace()).withName(job.name());
        QueueUnit current = there ? resource.get() : remembered.unit(job.uid());
        if (current == null) {
            try {
                // An API server with the status subresource ignores status on create: it is written next.
                current = fleet.resources(QueueUnit.class).inNamespace(job.namespace()).resource(unit).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                current = resource.get();
            }
        }
        if (current == null) {
            // Deleted between the conflict and the read: created on the next try.
            throw new KubernetesClientException("the QueueUnit was deleted while it was written", 409, null);
        }
        if (!Objects.equals(current.getSpec(), unit.getSpec())
                || !Objects.equals(current.getMetadata().getOwnerReferences(), unit.getMetadata().getOwnerReferences())) {
            // A unit left by an earlier job of the name, or written before units had owners, becomes this job's.
            current.setSpec(unit.getSpec());
            current.getMetadata().setLabels(unit.getMetadata().getLabels());
            current.getMetadata().setOwnerReferences(unit.getMetadata().getOwnerReferences());
            current = fleet.resources(QueueUnit.class).inNamespace(job.namespace()).resource(current).update();
        }
        if (current.getStatus() == null || !Objects.equals(current.getStatus().phase(), status.phase())
                || !Objects.equals(current.getStatus().message(), status.message())
                || !Objects.equals(current.getStatus().estimatedStartTime(), status.estimatedStartTime())) {
            String patch = VersionedPatch.of(fleet.getKubernetesSerialization(), null, current.getMetadata().getResourceVersion(),
                    Map.of("op", "add", "path", "/status", "value", status));
            try {
                current = fleet.resources(QueueUnit.class).inNamespace(job.namespace()).resource(current).subresource("status")
                        .patch(PatchContext.of(PatchType.JSON), patch);
            } catch (KubernetesClientException e) {
                throw e.getCode() == 422 ? new KubernetesClientException("the QueueUnit changed since it was written", 409, null) : e;
            }
        }
        return current;
    }

    private void putQueues(FleetWrite.PutQueues write) {
        ensureNamespace(Queue.NAMESPACE);
        List<Queue> existing = fleet.resources(Queue.class).inNamespace(Queue.NAMESPACE)
                .withLabel(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER).list().getItems();
        for (Queue queue : existing) {
            if (!write.nodeByQueue().containsKey(queue.getMetadata().getName())) {
                fleet.resources(Queue.class).inNamespace(Queue.NAMESPACE).withName(queue.getMetadata().getName()).delete();
                LOG.infof("queue %s deleted: its quota node is no longer in the tree", queue.getMetadata().getName());
            }
        }
        for (String name : write.order()) {
            if (existing.stream().anyMatch(queue -> queue.getMetadata().getName().equals(name))) {
                continue;
            }
            Queue queue = new Queue();
            ObjectMeta metadata = new ObjectMetaBuilder().withName(name).withNamespace(Queue.NAMESPACE)
                    .withLabels(Map.of(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER))
                    .withAnnotations(Map.of(QUOTA_NODE, write.nodeByQueue().get(name))).build();
            queue.setMetadata(metadata);
            queue.setSpec(new QueueSpec(null, null, null, Map.of()));
            try {
                fleet.resources(Queue.class).inNamespace(Queue.NAMESPACE).resource(queue).create();
                LOG.infof("queue %s created for quota node %s", name, write.nodeByQueue().get(name));
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
    }

    private void ensureNamespace(String namespace) {
        if (fleet.namespaces().withName(namespace).get() == null) {
            try {
                fleet.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
    }

    private static ObjectReference jobReference(JobRef job, String uid) {
        return new ObjectReferenceBuilder().withApiVersion(PyTorchJob.API_VERSION).withKind(PyTorchJob.KIND)
                .withNamespace(job.namespace()).withName(job.name()).withUid(uid).build();
    }

    /** The fleet object's own UID, which {@code kubectl describe} finds its events by; the events' UID when there is no object (yet). */
    private String objectUid(JobRef job) {
        return fleetObjectUid(job).orElse(job.uid());
    }

    /** The UID of the job's own fleet object, as remembered or read; empty when the job is not (or no longer) there. */
    private Optional<String> fleetObjectUid(JobRef job) {
        RememberedObjects.Job known = remembered.job(job.uid());
        if (known != null) {
            return Optional.of(known.objectUid());
        }
        PyTorchJob object = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
        return remember(job, object) ? Optional.of(object.getMetadata().getUid()) : Optional.empty();
    }

    /** Whether the object is the job's own fleet object (not gone, not another job of that name); remembered if so. */
    private boolean remember(JobRef job, PyTorchJob object) {
        if (object == null || object.getMetadata() == null || !job.uid().equals(FleetJobs.eventUid(object))) {
            return false;
        }
        remembered.job(job.uid(), new RememberedObjects.Job(object.getMetadata().getUid(), object.getMetadata().getResourceVersion(),
                object.getStatus()));
        return true;
    }
}
