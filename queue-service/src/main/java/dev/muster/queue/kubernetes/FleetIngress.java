package dev.muster.queue.kubernetes;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigEventData;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.PolicyDeleted;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.event.QuotaTreeDeleted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.queue.config.QueueConfig;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * The {@code kubectl} path: watches the fleet API server for PyTorchJobs, PropagationPolicies and the
 * ElasticQuotaTree and turns their creation, change and deletion into the same events a producer sends on the
 * Kafka path ({@link Topics#SUBMISSIONS}, {@link Topics#FLEET_CONFIG}).
 * <p>
 * Event ids are derived from each object's UID and resource version, so a re-list after a watch gap or a
 * restart sends the same ids, and the queue ignores a job it already knows: nothing is duplicated. A job's
 * later changes are not resubmitted; a job that already finished is not submitted at all.
 */
@ApplicationScoped
public class FleetIngress {

    public static final String SOURCE = FleetJobs.INGRESS_SOURCE;
    private static final Logger LOG = Logger.getLogger(FleetIngress.class);

    private final KubernetesClient client;
    private final QueueConfig config;
    private final Emitter<byte[]> emitter;
    private final Clock clock = Clock.systemUTC();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    FleetIngress(KubernetesClient client, QueueConfig config,
                 @Channel("fleet-ingress") @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> emitter) {
        this.client = client;
        this.config = config;
        this.emitter = emitter;
    }

    void start(@Observes StartupEvent startup) {
        if (!config.fleetApi().watch()) {
            LOG.info("not watching the fleet API (muster.queue.fleet-api.watch=false): submissions come from Kafka only");
            return;
        }
        long resync = config.fleetApi().resync().toMillis();
        // The fleet may hold many jobs, and their specs travel in the events: the informer keeps only who each is.
        informers.add(watch(PyTorchJob.class, resync, new JobIdentityStore(), this::jobHandler));
        informers.add(watch(PropagationPolicy.class, resync, null, type -> configHandler(PolicyApplied::new,
                policy -> new PolicyDeleted(policy.getMetadata().getNamespace(), policy.getMetadata().getName()))));
        informers.add(watch(ElasticQuotaTree.class, resync, null, type -> configHandler(QuotaTreeApplied::new,
                tree -> new QuotaTreeDeleted(tree.getMetadata().getNamespace(), tree.getMetadata().getName()))));
        LOG.infof("watching the fleet API at %s for PyTorchJobs, PropagationPolicies and the ElasticQuotaTree", client.getMasterUrl());
    }

    void stop(@Observes ShutdownEvent shutdown) {
        informers.forEach(SharedIndexInformer::close);
    }

    /** @param store the informer's cache; null for the default, which keeps every object whole */
    private <T extends HasMetadata> SharedIndexInformer<T> watch(Class<T> type, long resync, ItemStore<T> store,
                                                                 Function<Class<T>, ResourceEventHandler<T>> handler) {
        SharedIndexInformer<T> informer = client.resources(type).inAnyNamespace().runnableInformer(resync);
        if (store != null) {
            informer.itemStore(store);
        }
        informer.addEventHandler(handler.apply(type));
        // Not awaited: an unreachable fleet API must not stop the Kafka path; the informer keeps retrying.
        informer.start().whenComplete((synced, failure) -> {
            if (failure != null) {
                LOG.warnf("the %s watch on the fleet API failed to start: %s", HasMetadata.getKind(type), failure.getMessage());
            }
        });
        return informer;
    }

    private ResourceEventHandler<PyTorchJob> jobHandler(Class<PyTorchJob> type) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(PyTorchJob job) {
                // A job submitted on the Kafka path is already in the queue; Muster wrote this object to show it.
                if (isFinished(job) || FleetJobs.isKafkaSubmission(job)) {
                    return;
                }
                sendJob(job, "submitted", new JobSubmitted(job));
            }

            @Override
            public void onUpdate(PyTorchJob old, PyTorchJob job) {
                // The job was resolved and queued when it was created; later changes (status included) are not resubmitted.
            }

            @Override
            public void onDelete(PyTorchJob job, boolean finalStateUnknown) {
                sendJob(job, "deleted", new JobDeleted("deleted from the fleet API"));
            }
        };
    }

    private <T extends HasMetadata> ResourceEventHandler<T> configHandler(Function<T, ConfigEventData> applied,
                                                                         Function<T, ConfigEventData> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                sendConfig(object, applied.apply(object));
            }

            @Override
            public void onUpdate(T old, T object) {
                // A re-list delivers every object again unchanged; only a new version is a change.
                if (!Objects.equals(old.getMetadata().getResourceVersion(), object.getMetadata().getResourceVersion())) {
                    sendConfig(object, applied.apply(object));
                }
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                sendConfig(object, deleted.apply(object));
            }
        };
    }

    private void sendJob(PyTorchJob job, String what, JobEventData data) {
        JobRef ref = new JobRef(job.getMetadata().getNamespace(), job.getMetadata().getName(), FleetJobs.eventUid(job));
        send(Topics.SUBMISSIONS, new JobEvent(id(ref.uid(), what), SOURCE, ref, clock.instant(), data));
    }

    private void sendConfig(HasMetadata object, ConfigEventData data) {
        String version = data instanceof PolicyDeleted || data instanceof QuotaTreeDeleted ? "deleted" : object.getMetadata().getResourceVersion();
        send(Topics.FLEET_CONFIG, new ConfigEvent(id(object.getMetadata().getUid(), version), SOURCE, clock.instant(), data));
    }

    private void send(String topic, MusterEvent event) {
        LOG.infof("fleet API: %s", event.describe());
        emitter.send(KafkaRecord.of(topic, event.key(), EventSerde.serialize(event)));
    }

    private static String id(String uid, String version) {
        return UUID.nameUUIDFromBytes((uid + "|" + version).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static boolean isFinished(PyTorchJob job) {
        return job.getStatus() != null && job.getStatus().conditions().stream()
                .anyMatch(condition -> ("Succeeded".equals(condition.type()) || "Failed".equals(condition.type()))
                        && "True".equals(condition.status()));
    }
}
