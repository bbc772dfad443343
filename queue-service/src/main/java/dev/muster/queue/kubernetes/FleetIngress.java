package dev.muster.queue.kubernetes;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.fleetclient.raw.MetadataLists;
import dev.muster.fleetclient.watch.SupervisedInformer;
import dev.muster.fleetclient.watch.Watches;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.PolicyDeleted;
import dev.muster.model.event.PriorityClassApplied;
import dev.muster.model.event.PriorityClassDeleted;
import dev.muster.model.event.QuotaTreeDeleted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.queue.config.Channels;
import dev.muster.queue.config.QueueConfig;
import dev.muster.queue.core.queueing.FleetApiJob;
import dev.muster.queue.core.queueing.FleetApiSubmissions;
import dev.muster.runtime.tracing.JobTraces;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * The {@code kubectl} path: watches the fleet API server for PyTorchJobs, PropagationPolicies, the ElasticQuotaTree
 * and PriorityClasses and turns their creation, change and deletion into the same events a producer sends on the
 * Kafka path ({@link Topics#SUBMISSIONS}, {@link Topics#FLEET_CONFIG}). A job's submission carries the priority its
 * PriorityClass had when the job was created, as the API server resolves a pod's: the class is read by the queue from
 * another topic, and may reach it after the job.
 * <p>
 * Objects are read raw ({@code GenericKubernetesResource}), which no object can fail, and passed on as they are:
 * the queue reads each into its type and says on that object alone what is wrong with it ({@code replicas: "two"},
 * {@code children: oops}), while every other object flows. The watches are supervised (see {@link Watches}): one
 * that stops is started again, and readiness is DOWN meanwhile.
 * <p>
 * Event ids are derived from each object's UID and resource version, so a re-list after a watch gap or a
 * restart sends the same ids, and the queue ignores a job it already knows: nothing is duplicated. A job's
 * later changes are not resubmitted; a job that already finished is not submitted at all.
 */
@ApplicationScoped
public class FleetIngress {

    public static final String SOURCE = FleetJobs.INGRESS_SOURCE;
    private static final Logger LOG = Logger.getLogger(FleetIngress.class);
    private static final Duration RESEND_DELETION_AFTER = Duration.ofMinutes(1);

    private final KubernetesClient client;
    private final QueueConfig config;
    private final Watches watches;
    private final Emitter<byte[]> emitter;
    private final JobTraces traces;
    private final FleetApiSubmissions submitted;
    private final Clock clock = Clock.systemUTC();
    private SupervisedInformer<GenericKubernetesResource> jobs;
    private ScheduledExecutorService deletionChecks;
    /**
     * When this process last sent each job's deletion, until the queue has recorded it: the check for missed deletions
     * does not send one again meanwhile, which it would between the watch's deletion and the queue reading it.
     */
    private final Map<String, Instant> deletionsSent = new ConcurrentHashMap<>();
    /** The fleet's PriorityClasses as last seen, by name. */
    private final Map<String, PriorityClassApplied> priorityClasses = new ConcurrentHashMap<>();

    FleetIngress(KubernetesClient client, QueueConfig config, Watches watches, JobTraces traces, FleetApiSubmissions submitted,
                 @Channel(Channels.FLEET_INGRESS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> emitter) {
        this.traces = traces;
        this.submitted = submitted;
        this.client = client;
        this.config = config;
        this.watches = watches;
        this.emitter = emitter;
    }

    void start(@Observes StartupEvent startup) {
        if (!config.fleetApi().watch()) {
            LOG.info("not watching the fleet API (muster.queue.fleet-api.watch=false): submissions come from Kafka only");
            return;
        }
        // The fleet may hold many jobs, and their specs travel in the events: the informer keeps only who each is.
        jobs = watches.start("fleet pytorchjobs", () -> informer(PyTorchJob.class), JobIdentityStore::new, new JobHandler(),
                () -> list(PyTorchJob.class));
        deletionChecks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "muster-missed-deletions");
            thread.setDaemon(true);
            return thread;
        });
        long every = config.fleetApi().missedDeletionCheck().toMillis();
        deletionChecks.scheduleWithFixedDelay(this::deleteWhatIsGone, every, every, TimeUnit.MILLISECONDS);
        watches.start("fleet propagationpolicies", () -> informer(PropagationPolicy.class), null,
                new ConfigHandler(EventType.POLICY_APPLIED, "policy", PropagationPolicy.KIND), () -> list(PropagationPolicy.class));
        watches.start("fleet elasticquotatrees", () -> informer(ElasticQuotaTree.class), null,
                new ConfigHandler(EventType.QUOTA_TREE_APPLIED, "tree", ElasticQuotaTree.KIND), () -> list(ElasticQuotaTree.class));
        watches.start("fleet priorityclasses", () -> informer(PriorityClass.class), null, new PriorityClassHandler(),
                () -> list(PriorityClass.class));
        LOG.infof("watching the fleet API at %s for PyTorchJobs, PropagationPolicies, the ElasticQuotaTree and PriorityClasses",
                client.getMasterUrl());
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (deletionChecks != null) {
            deletionChecks.shutdownNow();
        }
    }

    /**
     * Deletes the jobs the queue holds from the fleet API that are no longer there. A watch reports a deletion once: one
     * made while the queue was down, or reported to a process killed before it passed it on, would otherwise leave the
     * job's member copy and QueueUnit for good. The queue's jobs are read before the watch's; those missing from the watch
     * are looked for in a list from the API server before they are taken for deleted: the object of a Kafka submission,
     * written by status sync, may reach the queue's records before its watch.
     */
    private void deleteWhatIsGone() {
        try {
            List<FleetApiJob> held = submitted.undeleted();
            // What the queue no longer holds it has recorded as deleted (or never held): nothing to remember.
            Set<String> heldUids = held.stream().map(FleetApiJob::uid).collect(Collectors.toSet());
            deletionsSent.keySet().retainAll(heldUids);
            if (held.isEmpty()) {
                return;
            }
            Optional<List<GenericKubernetesResource>> listed = jobs.listIfWatching();
            if (listed.isEmpty()) {
                return;
            }
            Map<String, String> objectOf = new HashMap<>();
            listed.get().forEach(object -> objectOf.putIfAbsent(FleetJobs.eventUid(object), object.getMetadata().getUid()));
            List<FleetApiJob> missing = held.stream().filter(job -> !objectOf.containsKey(job.uid())).toList();
            if (!missing.isEmpty()) {
                // Confirmed by a list of the server's own: the watch may lag behind. An object of the job's name there is
                // the job's only if it is the object it was applied as, or shown with; another is a job applied since.
                Map<String, String> uidOfName = new HashMap<>();
                list(PyTorchJob.class).forEach(object -> uidOfName.put(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(),
                        object.getMetadata().getUid()));
                missing.stream().filter(job -> !isItsObject(job, uidOfName.get(job.ref().subject()), uidOfName.containsKey(job.ref().subject())))
                        .forEach(job -> deleteUnlessSentRecently(job.ref(), "deleted from the fleet API while the queue was not watching"));
            }
            // Status sync writes a Kafka job's object again only when it reads its submission again and finds none: the
            // object it was shown with was deleted, and a watch that was down, or listed again, saw no deletion.
            held.stream().filter(job -> job.objectUid() != null && objectOf.containsKey(job.uid()) && !job.objectUid().equals(objectOf.get(job.uid())))
                    .forEach(job -> deleteUnlessSentRecently(job.ref(), "deleted from the fleet API while the queue was not watching (object "
                            + job.objectUid() + "; the one there now, " + objectOf.get(job.uid()) + ", was written again since)"));
        } catch (RuntimeException e) {
            LOG.warnf("fleet API: looking for jobs deleted while the queue was not watching failed (%s); trying again", e.toString());
        }
    }

    /**
     * Whether the object of the job's name the server lists is the job's: the one it was applied as or shown with. One
     * listed without a UID, or a job the queue holds since before it kept which object is the job's, is taken for the
     * job's, as before the UIDs were compared.
     */
    static boolean isItsObject(FleetApiJob job, String listedUid, boolean named) {
        return named && (listedUid == null || job.objectUid() == null || listedUid.equals(job.objectUid()));
    }

    private void deleteUnlessSentRecently(JobRef job, String reason) {
        if (!sentRecently(job.uid())) {
            JobEvent deleted = new JobEvent(id(job.uid(), "deleted"), SOURCE, job, clock.instant(), new JobDeleted(reason));
            sendForJob(job.uid(), "fleet API deleted", deleted.describe(), EventSerde.serialize(deleted));
        }
    }

    /**
     * Whether this process sent the job's deletion less than {@link #RESEND_DELETION_AFTER} ago; if not, it is taken as
     * sent now. A deletion lost with the broker is sent again after that.
     */
    private boolean sentRecently(String uid) {
        Instant now = clock.instant();
        Instant sent = deletionsSent.get(uid);
        if (sent != null && sent.plus(RESEND_DELETION_AFTER).isAfter(now)) {
            return true;
        }
        deletionsSent.put(uid, now);
        return false;
    }

    private SharedIndexInformer<GenericKubernetesResource> informer(Class<? extends HasMetadata> type) {
        return client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type)).inAnyNamespace()
                .runnableInformer(config.fleetApi().resync().toMillis());
    }

    /** What the fleet API holds of a kind, by name: what its watch is audited against. */
    private List<HasMetadata> list(Class<? extends HasMetadata> type) {
        return MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(type));
    }

    /** Jobs: each new one is submitted as it is; a deletion deletes it. */
    private final class JobHandler implements ResourceEventHandler<GenericKubernetesResource> {

        @Override
        public void onAdd(GenericKubernetesResource job) {
            // A job submitted on the Kafka path is already in the queue; Muster wrote this object to show it.
            if (isFinished(job) || FleetJobs.isKafkaSubmission(job)) {
                return;
            }
            JobRef ref = ref(job);
            ObjectNode data = MusterJson.json().createObjectNode();
            data.set("job", MusterJson.json().valueToTree(job));
            priorityOf(job).ifPresent(priority -> data.put("priority", priority));
            sendForJob(ref.uid(), "fleet API submitted", "job " + ref + " submitted", EventSerde.serializeUnchecked(EventType.SUBMITTED,
                    id(ref.uid(), "submitted"), SOURCE, ref.subject(), ref.uid(), clock.instant(), data));
        }

        @Override
        public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource job) {
            // The job was resolved and queued when it was created; later changes (status included) are not resubmitted. An
            // object of the same name with another UID is another object: a watch listed again after it was down saw the
            // first deleted and the second made as an update.
            if (!Objects.equals(old.getMetadata().getUid(), job.getMetadata().getUid())) {
                onDelete(old, false);
                onAdd(job);
            }
        }

        @Override
        public void onDelete(GenericKubernetesResource job, boolean finalStateUnknown) {
            JobRef ref = ref(job);
            deletionsSent.put(ref.uid(), clock.instant());
            JobEvent deleted = new JobEvent(id(ref.uid(), "deleted"), SOURCE, ref, clock.instant(), new JobDeleted("deleted from the fleet API"));
            sendForJob(ref.uid(), "fleet API deleted", deleted.describe(), EventSerde.serialize(deleted));
        }

        private JobRef ref(GenericKubernetesResource job) {
            return new JobRef(job.getMetadata().getNamespace(), job.getMetadata().getName(), FleetJobs.eventUid(job));
        }
    }

    /** Config objects: every new version is applied; a re-list delivers every object again unchanged, which is no change. */
    private abstract static class VersionedHandler implements ResourceEventHandler<GenericKubernetesResource> {

        @Override
        public final void onAdd(GenericKubernetesResource object) {
            apply(object);
        }

        @Override
        public final void onUpdate(GenericKubernetesResource old, GenericKubernetesResource object) {
            if (!Objects.equals(version(old), version(object))) {
                apply(object);
            }
        }

        /** What tells one version of the object from the next: its resource version, unless a subclass knows better. */
        String version(GenericKubernetesResource object) {
            return object.getMetadata().getResourceVersion();
        }

        abstract void apply(GenericKubernetesResource object);
    }

    /** Policies and the tree: every new version is applied as it is; a deletion deletes it. */
    private final class ConfigHandler extends VersionedHandler {

        private final EventType applied;
        private final String field;
        private final String kind;

        ConfigHandler(EventType applied, String field, String kind) {
            this.applied = applied;
            this.field = field;
            this.kind = kind;
        }

        @Override
        public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
            String namespace = object.getMetadata().getNamespace();
            String name = object.getMetadata().getName();
            ConfigEvent deleted = new ConfigEvent(id(object.getMetadata().getUid(), "deleted"), SOURCE, clock.instant(),
                    applied == EventType.POLICY_APPLIED ? new PolicyDeleted(namespace, name) : new QuotaTreeDeleted(namespace, name));
            send(Topics.FLEET_CONFIG, deleted.key(), deleted.describe(), EventSerde.serialize(deleted));
        }

        /**
         * The generation, which the API server moves on a change of the spec only: status sync writes the outcome of each
         * change on the object's status, and applying that write again would write the outcome again, without end.
         */
        @Override
        String version(GenericKubernetesResource object) {
            Long generation = object.getMetadata().getGeneration();
            return generation == null ? super.version(object) : "generation " + generation;
        }

        @Override
        void apply(GenericKubernetesResource object) {
            String subject = object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
            ObjectNode data = MusterJson.json().createObjectNode();
            data.set(field, MusterJson.json().valueToTree(object));
            send(Topics.FLEET_CONFIG, kind + "/" + subject, kind + " " + subject + " applied", EventSerde.serializeUnchecked(applied,
                    id(object.getMetadata().getUid(), version(object)), SOURCE, subject, null, clock.instant(), data));
        }
    }

    /** PriorityClasses: each version is passed on as its name, value and whether it is the global default. */
    private final class PriorityClassHandler extends VersionedHandler {

        @Override
        public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
            String name = object.getMetadata().getName();
            priorityClasses.remove(name);
            ConfigEvent deleted = new ConfigEvent(id(object.getMetadata().getUid(), "deleted"), SOURCE, clock.instant(), new PriorityClassDeleted(name));
            send(Topics.FLEET_CONFIG, deleted.key(), deleted.describe(), EventSerde.serialize(deleted));
        }

        @Override
        void apply(GenericKubernetesResource object) {
            Optional<PriorityClassApplied> applied = read(object);
            if (applied.isEmpty()) {
                // An API server refuses a class without an integer value; one that holds such an object is not believed.
                LOG.warnf("fleet API: PriorityClass %s has no integer value; it is ignored", object.getMetadata().getName());
                return;
            }
            priorityClasses.put(applied.get().name(), applied.get());
            ConfigEvent event = new ConfigEvent(id(object.getMetadata().getUid(), object.getMetadata().getResourceVersion()), SOURCE, clock.instant(),
                    applied.get());
            send(Topics.FLEET_CONFIG, event.key(), event.describe(), EventSerde.serialize(event));
        }
    }

    private static Optional<PriorityClassApplied> read(GenericKubernetesResource object) {
        JsonNode node = MusterJson.json().valueToTree(object);
        JsonNode value = node.path("value");
        if (!value.isInt() || object.getMetadata().getName() == null) {
            return Optional.empty();
        }
        return Optional.of(new PriorityClassApplied(object.getMetadata().getName(), value.intValue(), node.path("globalDefault").asBoolean(false)));
    }

    /**
     * The priority the job takes now: that of the class it names, read from the fleet API if the watch has not shown it
     * yet; else that of the global default. Empty when the class does not exist: the queue refuses the job then.
     */
    private Optional<Integer> priorityOf(GenericKubernetesResource job) {
        JsonNode named = MusterJson.json().valueToTree(job).path("spec").path("runPolicy").path("schedulingPolicy").path("priorityClass");
        if (!named.isTextual()) {
            return priorityClasses.values().stream().filter(PriorityClassApplied::globalDefault).map(PriorityClassApplied::value)
                    .max(Integer::compare);
        }
        PriorityClassApplied known = priorityClasses.get(named.asText());
        if (known != null) {
            return Optional.of(known.value());
        }
        try {
            return Optional.ofNullable(client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(PriorityClass.class))
                    .withName(named.asText()).get()).flatMap(FleetIngress::read).map(PriorityClassApplied::value);
        } catch (KubernetesClientException e) {
            LOG.warnf("fleet API: PriorityClass %s could not be read (%s); the queue resolves it", named.asText(), e.getMessage());
            return Optional.empty();
        }
    }

    private void send(String topic, String key, String description, byte[] event) {
        LOG.infof("fleet API: %s", description);
        emitter.send(KafkaRecord.of(topic, key, event));
    }

    /** A job's submission or deletion, read from the fleet API: where its trace starts, or goes on. */
    private void sendForJob(String uid, String what, String description, byte[] event) {
        LOG.infof("fleet API: %s", description);
        emitter.send(JobTraces.carrying(KafkaRecord.of(Topics.SUBMISSIONS, uid, event), traces.sending(what, uid)));
    }

    private static String id(String uid, String version) {
        return UUID.nameUUIDFromBytes((uid + "|" + version).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Whether the job's status says it succeeded or failed; a status that cannot be read says nothing. */
    private static boolean isFinished(GenericKubernetesResource job) {
        JsonNode conditions = MusterJson.json().valueToTree(job.getAdditionalProperties().getOrDefault("status", Map.of())).path("conditions");
        for (JsonNode condition : conditions.isArray() ? conditions : List.<JsonNode>of()) {
            String type = condition.path("type").asText();
            if (("Succeeded".equals(type) || "Failed".equals(type)) && "True".equals(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
    }
}
