package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.muster.local.MusterService;
import dev.muster.model.config.ConfigStatus;
import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.simulator.cluster.Kubeconfigs;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kubectl.Kubectl;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Muster tried as an adversarial user would, running whole (the packaged services, a real broker, the fleet API and
 * simulated members). Every hostile input on both front doors gets its own clear error, on the job, the object or the
 * dead-letter topic, and nothing else is disturbed: afterwards twenty good jobs on each path all run and show their
 * status on the fleet. What happens while a service is down, or a member half-works, is not lost: status sync killed
 * while jobs finish reports them once it is back (its member watches surviving lists that fail under load), so their
 * quota is released; a member that stops confirming reservations is given up on with an Event naming it and the timeout.
 * <p>
 * It runs on a secured broker (TLS, SCRAM, ACLs), as a platform team's would be: the services each with their own
 * user, the hostile records written by the broker's super user (an operator, who may write every topic), the good
 * Kafka-path jobs by a submitter into its inbox. A submitter may submit and delete in its own namespaces only, and
 * write nothing else; no password of any user is in any log.
 */
@FaultTier
class AdversarialUserIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String KUBECTL_NAMESPACE = "kubectl-path";
    private static final String KAFKA_NAMESPACE = "kafka-path";
    private static final String OTHER_NAMESPACE = "other-team";
    private static final String SUBMITTER = "kafka-path-ci";
    private static final String OTHER_SUBMITTER = "other-team-ci";
    /** A viewer of the Kafka path's namespace only, in every service's views. */
    private static final String TEAM_VIEWER_TOKEN = UUID.randomUUID().toString();
    private static final Map<String, String> TEAM_VIEWER = Map.of(
            "muster.views.viewers.\"kafka-team\".token-sha256", dev.muster.model.json.Kubeconfig.tokenDigest(TEAM_VIEWER_TOKEN),
            "muster.views.viewers.\"kafka-team\".namespaces", KAFKA_NAMESPACE);
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static MusterStack stack;
    private static KubernetesClient fleet;
    private static Kubectl kubectl;
    private static JobEventClient kafka;
    private static JobEventClient submitter;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = MusterStack.startSecured(Path.of("..", "deploy", "local", "fleet.yaml"),
                Map.of(MusterService.PLACEMENT, with(TEAM_VIEWER, "muster.placement.reservation-timeout", "5s"),
                        MusterService.QUEUE, TEAM_VIEWER, MusterService.STATUS_SYNC, TEAM_VIEWER),
                Map.of(SUBMITTER, java.util.Set.of(KAFKA_NAMESPACE), OTHER_SUBMITTER, java.util.Set.of(OTHER_NAMESPACE)));
        fleet = stack.fleet.connect();
        kubectl = new Kubectl(stack.fleet.kubeconfig(), Path.of("..", "bin"));
        kafka = stack.kafkaAsOperator();
        submitter = stack.kafkaAs(SUBMITTER);
        for (String namespace : List.of(KUBECTL_NAMESPACE, KAFKA_NAMESPACE, OTHER_NAMESPACE)) {
            kubectl.run("create", "namespace", namespace).succeeded();
            fleet.resources(PropagationPolicy.class).inNamespace(namespace).resource(policy(namespace)).create();
        }
        kubectl.run("apply", "-f", EXAMPLES.resolve("elastic-quota-tree.yaml").toString()).succeeded();
        fleet.resource(Seed.queuePolicy("default")).create();
        // Straight to placement, no quota: the namespace is in no leaf of the tree.
        fleet.resource(policy("reserved")).create();
    }

    /**
     * After everything above (hostile input on both paths, status sync killed, members failing), no log of any process
     * holds a credential: every kubeconfig the fleet and the members have carries a bearer token, which the services
     * read and send, and none of them may write it down.
     */
    @AfterAll
    static void stopMusterAndFindNoCredentialInItsLogs() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
        if (submitter != null) {
            submitter.close();
        }
        if (fleet != null) {
            fleet.close();
        }
        if (stack != null) {
            stack.close();
            List<Path> logs = stack.logFiles();
            List<String> passwords = stack.kafkaPasswords();
            List<Path> leaking = new java.util.ArrayList<>();
            for (Path log : logs) {
                String text = java.nio.file.Files.readString(log, StandardCharsets.ISO_8859_1);
                if (text.contains(Kubeconfigs.TOKEN_PREFIX) || passwords.stream().anyMatch(text::contains)) {
                    leaking.add(log);
                }
            }
            assertThat(logs).as("the run's logs").hasSizeGreaterThanOrEqualTo(3);
            assertThat(passwords).as("the Kafka users' passwords: three services, two submitters, the super user").hasSize(6);
            assertThat(leaking).as("logs (and broker segments) holding a bearer token of the fleet's or a member's kubeconfig,"
                    + " or a Kafka user's password").isEmpty();
        }
    }

    private static Map<String, String> with(Map<String, String> properties, String name, String value) {
        Map<String, String> more = new java.util.HashMap<>(properties);
        more.put(name, value);
        return more;
    }

    /** The seed's gang policy without queueing, in a namespace of its own: its jobs go straight to placement. */
    private static PropagationPolicy policy(String namespace) {
        return Manifests.read(Seed.text(Seed.POLICY_GANG).replace("namespace: default", "namespace: " + namespace), PropagationPolicy.class);
    }

    private static Kubectl.Result apply(String manifest) throws Exception {
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target")), "hostile", ".yaml");
        Files.writeString(file, manifest);
        return kubectl.run("apply", "-f", file.toString());
    }

    private static String seedJob(String namespace, String name) throws Exception {
        return Files.readString(EXAMPLES.resolve("pytorch-job.yaml")).replace("name: pytorch-test\n", "name: " + name + "\n")
                .replace("namespace: default", "namespace: " + namespace);
    }

    /** A submission on the Kafka path as its JSON, for a test to spoil. */
    private static String submission(JobRef job, PyTorchJob manifest) {
        return new String(EventSerde.serialize(JobEvent.create("/hostile", job, Instant.now(), new JobSubmitted(manifest))), StandardCharsets.UTF_8);
    }

    private static JobRef kafkaJob(String name) {
        return new JobRef(KAFKA_NAMESPACE, name, UUID.randomUUID().toString());
    }

    /** The reason the queue rejected the job with. */
    private static String rejection(JobRef job) {
        JobEvent rejected = kafka.await(Topics.ADMISSIONS, event -> event.job().uid().equals(job.uid()) && event.data() instanceof JobRejected,
                DEADLINE);
        return String.join("; ", ((JobRejected) rejected.data()).reasons());
    }

    private static Optional<JobCondition> state(String namespace, String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
        return job == null || job.getStatus() == null ? Optional.empty() : job.getStatus().currentCondition();
    }

    private static Optional<Condition> accepted(String treeName) {
        ElasticQuotaTree tree = fleet.resources(ElasticQuotaTree.class).inNamespace("kube-system").withName(treeName).get();
        return tree == null || tree.getStatus() == null ? Optional.empty()
                : tree.getStatus().conditions().stream().filter(condition -> ConfigStatus.ACCEPTED.equals(condition.getType())).findFirst();
    }

    /** Sends a submission of the job under its uid, its JSON text altered by one replacement: what a careless producer writes. */
    private JobRef sendAltered(PyTorchJob manifest, String name, String text, String replacement) {
        JobRef job = kafkaJob(name);
        kafka.sendRaw(Topics.SUBMISSIONS, job.uid(), submission(job, named(manifest, job)).replace(text, replacement)
                .getBytes(StandardCharsets.UTF_8));
        return job;
    }

    /** Which services read each topic, and so dead-letter what cannot be read on it. */
    private static final Map<String, List<String>> READERS = Map.of(
            Topics.SUBMISSIONS, List.of("queue-service", "placement-service", "status-sync-service"),
            Topics.FLEET_CONFIG, List.of("queue-service"),
            Topics.ADMISSIONS, List.of("placement-service", "status-sync-service"),
            Topics.PLACEMENTS, List.of("queue-service", "status-sync-service"),
            Topics.MEMBER_STATUS, List.of("queue-service", "placement-service", "status-sync-service"),
            Topics.INVENTORY, List.of("placement-service"),
            Topics.PLACEMENT_RESULTS, List.of("placement-service"));

    @Test
    void everyHostileInputGetsItsOwnErrorAndFortyGoodJobsAfterThemAllRun() throws Exception {
        // --- the kubectl path: what the fleet API refuses at apply, and what the queue refuses on the object ----------------
        assertThat(apply(seedJob(KUBECTL_NAMESPACE, "bad-two").replaceFirst("replicas: 2", "replicas: \"two\"")).err())
                .contains("spec.pytorchReplicaSpecs.Worker.replicas in body must be of type integer");
        assertThat(apply(seedJob(KUBECTL_NAMESPACE, "bad-negative").replaceFirst("replicas: 2", "replicas: -1")).err())
                .contains("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1");
        String tree = Files.readString(EXAMPLES.resolve("elastic-quota-tree.yaml"));
        apply(tree.replace("name: elasticquotatree", "name: second-tree")).succeeded();
        apply(tree.replace("  root:\n    name: root\n", "  root:\n")).succeeded();

        // --- the Kafka path: records that look like events and must not be taken as they are -----------------------------
        PyTorchJob manifest = Seed.job(KAFKA_NAMESPACE, "x");
        JobRef noKey = kafkaJob("no-key");
        kafka.sendRaw(Topics.SUBMISSIONS, null, submission(noKey, named(manifest, noKey)).getBytes(StandardCharsets.UTF_8));
        JobRef wrongKey = kafkaJob("wrong-key");
        kafka.sendRaw(Topics.SUBMISSIONS, "not-its-uid", submission(wrongKey, named(manifest, wrongKey)).getBytes(StandardCharsets.UTF_8));
        JobRef badVersion = sendAltered(manifest, "bad-version", "\"schemaversion\":1", "\"schemaversion\":\"abc\"");
        JobRef halfReplica = sendAltered(manifest, "half-replica", "\"replicas\":2", "\"replicas\":1.5");
        JobRef forged = sendAltered(manifest, "forged-admission", "dev.muster.job.submitted", "dev.muster.job.admitted");
        JobRef neverExisted = kafkaJob("never-existed");
        kafka.send(Topics.SUBMISSIONS, JobEvent.create("/hostile", neverExisted, Instant.now(), new JobDeleted("just because")));
        JobRef huge = sendAltered(manifest, "huge-gang", "\"replicas\":2", "\"replicas\":2147483647");
        JobRef endlessCpu = sendAltered(manifest, "endless-cpu", "\"cpu\":\"2\"", "\"cpu\":\"1e400\"");
        JobRef first = kafkaJob("h-f091");
        kafka.send(Topics.SUBMISSIONS, JobEvent.create("/hostile", first, Instant.now(), new JobSubmitted(named(manifest, first))));
        // Records of different jobs go to different partitions, which are read in no set order: "second" means decided after.
        kafka.await(Topics.ADMISSIONS, event -> event.job().equals(first), DEADLINE);
        JobRef sameName = kafkaJob("h-f091");
        kafka.send(Topics.SUBMISSIONS, JobEvent.create("/hostile", sameName, Instant.now(), new JobSubmitted(named(manifest, sameName))));
        JobRef sameUid = new JobRef(KAFKA_NAMESPACE, "another-name", first.uid());
        kafka.send(Topics.SUBMISSIONS, JobEvent.create("/hostile", sameUid, Instant.now(), new JobSubmitted(named(manifest, sameUid))));
        JobRef tooManyGpus = kafkaJob("too-many-gpus");
        kafka.send(Topics.SUBMISSIONS, JobEvent.create("/hostile", tooManyGpus, Instant.now(), new JobSubmitted(gpuGang(tooManyGpus, 13, 8))));
        kafka.sendRaw(Topics.SUBMISSIONS, "garbage", "{oops".getBytes(StandardCharsets.UTF_8));
        // Garbage on every topic a service reads, and a record as large as the broker takes: every reader dead-letters them.
        READERS.keySet().forEach(topic -> kafka.sendRaw(topic, "garbage-" + topic, "{oops".getBytes(StandardCharsets.UTF_8)));
        kafka.sendRaw(Topics.SUBMISSIONS, "huge-garbage", "\"".repeat(1_000_000).getBytes(StandardCharsets.UTF_8));

        assertThat(rejection(noKey)).isEqualTo("the record has no key; it must be the event's jobuid \"" + noKey.uid() + "\"");
        assertThat(rejection(wrongKey)).isEqualTo("the record's key \"not-its-uid\" is not the event's jobuid \"" + wrongKey.uid() + "\"");
        assertThat(rejection(badVersion)).isEqualTo("schemaversion must be an integer, got \"abc\"");
        assertThat(rejection(halfReplica)).contains("spec.pytorchReplicaSpecs.Worker.replicas: expected an integer");
        assertThat(rejection(forged)).contains("dev.muster.job.admitted is not accepted on muster.job.submissions");
        assertThat(rejection(neverExisted)).isEqualTo("deletion refused: Muster has no job kafka-path/never-existed with jobuid " + neverExisted.uid());
        assertThat(rejection(huge)).contains("must be at most 10000 (Muster's limit of pods per gang, muster.limits.max-pods-per-gang)");
        assertThat(rejection(endlessCpu)).contains("must be at most 9223372036854775807 (2^63-1)");
        assertThat(rejection(sameName)).startsWith("job kafka-path/h-f091 exists already (uid " + first.uid() + ")");
        assertThat(rejection(sameUid)).isEqualTo("jobuid " + first.uid() + " is job kafka-path/h-f091 already; a job keeps its uid and its name");
        JobEvent neverFits = kafka.await(Topics.PLACEMENTS, event -> event.job().equals(tooManyGpus) && event.data() instanceof JobRejected, DEADLINE);
        assertThat(((JobRejected) neverFits.data()).reasons()).singleElement().asString()
                .isEqualTo("no member cluster could hold the whole gang even with nothing else running: the job needs 104 nvidia.com/gpu in all;"
                        + " the largest member, gpu-b, has 64");
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(KAFKA_NAMESPACE, "too-many-gpus")).hasValueSatisfying(condition -> {
            assertThat(condition.type()).isEqualTo("Failed");
            assertThat(condition.message()).contains("the largest member, gpu-b, has 64");
        }));
        kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> "garbage".equals(letter.key()) && letter.reason().startsWith("not JSON"), DEADLINE);
        READERS.forEach((topic, readers) -> readers.forEach(reader -> kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> ("garbage-" + topic)
                .equals(letter.key()) && topic.equals(letter.topic()) && reader.equals(letter.service()), DEADLINE)));
        for (String reader : READERS.get(Topics.SUBMISSIONS)) {
            DeadLetter cut = kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> "huge-garbage".equals(letter.key()) && reader.equals(letter.service()),
                    DEADLINE);
            assertThat(cut.payloadTruncated()).as("the 1 MB record's dead letter from %s is cut to fit", reader).isTrue();
            assertThat(cut.payloadBytes()).isEqualTo(1_000_000);
        }

        // --- refused trees say so on themselves; the first tree stays in force ------------------------------------------
        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(accepted("second-tree")).hasValueSatisfying(condition -> {
                assertThat(condition.getStatus()).isEqualTo("False");
                assertThat(condition.getMessage()).contains("only one ElasticQuotaTree is supported");
            });
            assertThat(accepted("elasticquotatree")).hasValueSatisfying(condition -> {
                assertThat(condition.getStatus()).isEqualTo("False");
                assertThat(condition.getMessage()).contains("spec.root.name: is required").contains("In force instead: ElasticQuotaTree"
                        + " kube-system/elasticquotatree as last accepted");
            });
        });
        String config = get(MusterService.QUEUE, "/api/v1/config");
        assertThat(config).contains("\"treeInForce\":\"kube-system/elasticquotatree").contains("second-tree").contains("spec.root.name: is required");

        // --- and everything else flows: twenty good jobs on each path run, and the fleet shows it ---------------------------
        List<String> kubectlJobs = new ArrayList<>();
        List<String> kafkaJobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String name = "good-kubectl-" + i;
            apply(seedJob(KUBECTL_NAMESPACE, name)).succeeded();
            kubectlJobs.add(name);
            JobRef job = kafkaJob("good-kafka-" + i);
            submitter.send(Topics.inboxOf(SUBMITTER), JobEvent.create("/producer", job, Instant.now(), new JobSubmitted(named(manifest, job))));
            kafkaJobs.add(job.name());
        }
        await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> {
            for (String name : kubectlJobs) {
                assertThat(state(KUBECTL_NAMESPACE, name)).as(name).map(JobCondition::type).contains("Running");
            }
            for (String name : kafkaJobs) {
                assertThat(state(KAFKA_NAMESPACE, name)).as(name).map(JobCondition::type).contains("Running");
            }
        });
        for (MusterService service : MusterService.values()) {
            assertThat(get(HttpRequest.newBuilder(URI.create(stack.url(service) + "/q/health")).build()).body()).as(service.artifact())
                    .contains("\"status\": \"UP\"");
        }
    }

    @Test
    void aSubmitterSubmitsAndDeletesInItsOwnNamespacesOnlyAndWritesNoTopicButItsInbox() throws Exception {
        String inbox = Topics.inboxOf(SUBMITTER);
        // Its own job, submitted with kubectl muster and the client properties the stack wrote for it, runs.
        Path manifest = Files.createTempFile(Files.createDirectories(Path.of("target")), "own", ".yaml");
        Files.writeString(manifest, seedJob(KAFKA_NAMESPACE, "own-job"));
        assertThat(kubectl.run("muster", "submit", "-f", manifest.toString(), "--kafka-config", stack.kafkaClientConfig(SUBMITTER).toString())
                .succeeded()).contains("pytorchjob.kubeflow.org/own-job submitted on the Kafka path");
        JobRef theirs = new JobRef(OTHER_NAMESPACE, "their-job", UUID.randomUUID().toString());
        try (JobEventClient other = stack.kafkaAs(OTHER_SUBMITTER)) {
            other.send(Topics.inboxOf(OTHER_SUBMITTER), JobEvent.create("/other", theirs, Instant.now(),
                    new JobSubmitted(named(Seed.job(OTHER_NAMESPACE, "x"), theirs))));
        }
        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(state(KAFKA_NAMESPACE, "own-job")).as("its own job").map(JobCondition::type).contains("Running");
            assertThat(state(OTHER_NAMESPACE, "their-job")).as("the other team's job").map(JobCondition::type).contains("Running");
        });

        // Into another team's namespace, or deleting the other team's job under either namespace: refused, nothing charged.
        JobRef intruder = new JobRef(OTHER_NAMESPACE, "intruder", UUID.randomUUID().toString());
        submitter.send(inbox, JobEvent.create("/mallory", intruder, Instant.now(), new JobSubmitted(named(Seed.job(OTHER_NAMESPACE, "x"), intruder))));
        submitter.send(inbox, JobEvent.create("/mallory", theirs, Instant.now(), new JobDeleted("mine now")));
        JobRef disguised = new JobRef(KAFKA_NAMESPACE, "their-job", theirs.uid());
        submitter.send(inbox, JobEvent.create("/mallory", disguised, Instant.now(), new JobDeleted("mine now")));
        assertThat(kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> intruder.uid().equals(letter.key()), DEADLINE).reason())
                .isEqualTo("refused: kafka-path-ci may submit to and delete from kafka-path only, not namespace other-team (job other-team/intruder)");
        assertThat(kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> theirs.uid().equals(letter.key()) && inbox.equals(letter.topic()), DEADLINE)
                .reason()).startsWith("refused: kafka-path-ci may submit to and delete from kafka-path only, not namespace other-team");
        assertThat(kafka.awaitDeadLetter(Topics.DEAD_LETTER, letter -> theirs.uid().equals(letter.key()) && Topics.SUBMISSIONS.equals(letter.topic())
                && "queue-service".equals(letter.service()), DEADLINE).reason()).isEqualTo("deletion refused: jobuid " + theirs.uid()
                + " is not job kafka-path/their-job");
        assertThat(kafka.readAll(Topics.SUBMISSIONS)).as("the intruder is never passed on").noneMatch(event -> event.job().uid().equals(intruder.uid()));
        assertThat(state(OTHER_NAMESPACE, "their-job")).as("the other team's job runs on").map(JobCondition::type).contains("Running");

        // The topics only Muster writes refuse it: no forged admission, finished job, quota tree or direct submission.
        for (String topic : List.of(Topics.SUBMISSIONS, Topics.ADMISSIONS, Topics.PLACEMENTS, Topics.MEMBER_STATUS, Topics.FLEET_CONFIG,
                Topics.QUEUE_STATE, Topics.PLACEMENT_STATE, Topics.STATUS_SYNC_STATE, Topics.INVENTORY, Topics.DEAD_LETTER,
                Topics.inboxOf(OTHER_SUBMITTER))) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> submitter.sendRaw(topic, theirs.uid(), "{}".getBytes(StandardCharsets.UTF_8))))
                    .as(topic).hasRootCauseInstanceOf(org.apache.kafka.common.errors.TopicAuthorizationException.class);
        }
        // Nor may it read what the services write: other teams' jobs and manifests are on those topics.
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> submitter.readAll(Topics.ADMISSIONS)))
                .isInstanceOf(org.apache.kafka.common.errors.TopicAuthorizationException.class);
    }

    @Test
    void theViewsNeedAViewersTokenAndShowEachViewerOnlyTheJobsOfItsNamespaces() throws Exception {
        fleet.resource(Seed.job(KUBECTL_NAMESPACE, "not-the-teams")).create();
        JobRef teams = kafkaJob("the-teams");
        submitter.send(Topics.inboxOf(SUBMITTER), JobEvent.create("/ci", teams, Instant.now(), new JobSubmitted(named(Seed.job(KAFKA_NAMESPACE, "x"), teams))));
        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(state(KUBECTL_NAMESPACE, "not-the-teams")).map(JobCondition::type).contains("Running");
            assertThat(state(KAFKA_NAMESPACE, "the-teams")).map(JobCondition::type).contains("Running");
        });

        for (MusterService service : MusterService.values()) {
            String path = service == MusterService.QUEUE ? "/api/v1/queues" : service == MusterService.STATUS_SYNC ? "/api/v1/members" : "/api/v1/fit";
            HttpResponse<String> none = getAs(null, service, path);
            assertThat(none.statusCode()).as(service.artifact()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate")).as(service.artifact()).hasValue("Bearer realm=\"muster\"");
            assertThat(none.body()).contains("Muster's views need credentials");
            assertThat(getAs("Bearer guessed", service, path).body()).as(service.artifact()).contains("the bearer token is not a viewer's");
            assertThat(getAs("Basic YWRtaW46YWRtaW4=", service, path).body()).as(service.artifact()).contains("take a bearer token only");
            assertThat(getAs(null, service, "/q/health/live").statusCode()).as("probes stay open").isEqualTo(200);
        }

        String team = "Bearer " + TEAM_VIEWER_TOKEN;
        String teamJobs = getAs(team, MusterService.STATUS_SYNC, "/api/v1/members/pytorchjobs").body();
        assertThat(teamJobs).contains("\"name\":\"the-teams\"").doesNotContain("not-the-teams").doesNotContain(KUBECTL_NAMESPACE);
        assertThat(getAs(team, MusterService.STATUS_SYNC, "/api/v1/members/pods").body()).contains("the-teams").doesNotContain("not-the-teams");
        HttpResponse<String> forbidden = getAs(team, MusterService.QUEUE, "/api/v1/jobs/" + KUBECTL_NAMESPACE + "/not-the-teams");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(MusterJson.json().readTree(forbidden.body()).path("error").asText())
                .isEqualTo("viewer \"kafka-team\" may not see namespace " + KUBECTL_NAMESPACE);
        assertThat(getAs(team, MusterService.STATUS_SYNC, "/api/v1/members/gpu-a/pytorchjobs/" + KUBECTL_NAMESPACE + "/not-the-teams")
                .statusCode()).isEqualTo(403);
        assertThat(get(MusterService.STATUS_SYNC, "/api/v1/members/pytorchjobs")).as("the fleet's admin sees both")
                .contains("not-the-teams").contains("the-teams");
        assertThat(kubectl.run("muster", "get", "pytorchjob", "-M", "-n", KUBECTL_NAMESPACE).succeeded())
                .as("kubectl muster sends the kubeconfig's token").contains("not-the-teams");
    }

    @Test
    @FaultTier
    void jobsThatFinishWhileStatusSyncIsDownAreReportedOnceItIsBackAndTheirQuotaIsReleased() throws Exception {
        List<String> jobs = List.of("finishes-unseen");
        jobs.forEach(name -> fleet.resource(Seed.job("default", name)).create());
        await().atMost(DEADLINE).untilAsserted(() -> jobs.forEach(name ->
                assertThat(state("default", name)).as(name).map(JobCondition::type).contains("Running")));
        fleet.resource(Seed.job("default", "waits-for-quota")).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state("default", "waits-for-quota")).map(JobCondition::type).contains("Queuing"));

        // Under load the members fail their first lists after a restart: fabric8's informer stopped for good on one.
        for (String member : List.of("gpu-a", "gpu-b", "gpu-c")) {
            stack.member(member).faults().failLists("pytorchjobs", 3);
        }
        stack.service(MusterService.STATUS_SYNC).kill();
        for (String name : jobs) {
            for (String member : List.of("gpu-a", "gpu-b", "gpu-c")) {
                stack.member(member).completeJob("default", name);
            }
        }

        // The local stack's supervisor starts status sync again; it lists every member and reports what it missed.
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> jobs.forEach(name ->
                assertThat(state("default", name)).as(name + "; logs: %s", stack.logs()).map(JobCondition::type).contains("Succeeded")));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state("default", "waits-for-quota")).map(JobCondition::type).contains("Running"));
        assertThat(get(MusterService.QUEUE, "/api/v1/queues")).contains("\"node\":\"root/child-2\"")
                .contains("\"resource\":\"kube-queue/max-jobs\",\"used\":\"1\"");
    }

    /**
     * A job submitted on Kafka is shown on the fleet API, and deleting it there with kubectl deletes it: also while the queue
     * is down, whose watch, started afresh, never reports that deletion. Its copy leaves its member once the queue is back.
     */
    @Test
    @FaultTier
    void aKafkaJobDeletedFromTheFleetApiWhileTheQueueIsDownLeavesItsMemberOnceTheQueueIsBack() throws Exception {
        JobRef job = new JobRef(KAFKA_NAMESPACE, "deleted-unseen", UUID.randomUUID().toString());
        submitter.send(Topics.inboxOf(SUBMITTER), JobEvent.create("/team", job, Instant.now(),
                new JobSubmitted(named(Seed.job(KAFKA_NAMESPACE, "x"), job))));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(KAFKA_NAMESPACE, job.name())).map(JobCondition::type).contains("Running"));
        assertThat(copiesOnMembers(job)).isEqualTo(1);

        // Deleted while the queue starts again: the supervisor restarts it at once, and its watch lists the fleet anew.
        stack.service(MusterService.QUEUE).kill();
        fleet.resources(PyTorchJob.class).inNamespace(KAFKA_NAMESPACE).withName(job.name()).delete();

        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(copiesOnMembers(job)).as("copies on the members; logs: %s", stack.logs())
                .isZero());
        assertThat(kafka.readAll(Topics.SUBMISSIONS)).filteredOn(event -> event.job().equals(job) && event.data() instanceof JobDeleted)
                .extracting(event -> ((JobDeleted) event.data()).reason()).containsExactly("deleted from the fleet API while the queue was not watching");
        assertThat(fleet.resources(PyTorchJob.class).inNamespace(KAFKA_NAMESPACE).withName(job.name()).get()).as("not written again").isNull();
    }

    private static long copiesOnMembers(JobRef job) {
        return List.of("gpu-a", "gpu-b", "gpu-c").stream().filter(member -> stack.member(member).client().resources(PyTorchJob.class)
                .inNamespace(job.namespace()).withName(job.name()).get() != null).count();
    }

    @Test
    void aMemberThatStopsConfirmingReservationsIsGivenUpOnWithAnEventNamingItAndTheTimeout() throws Exception {
        SimulatedCluster gpuA = stack.member("gpu-a");
        gpuA.faults().stopReservations();
        try {
            // Only gpu-a has nodes with 8 GPUs free and reservations: the gang goes there first.
            PyTorchJob job = fleet.resource(Manifests.read("""
                    apiVersion: kubeflow.org/v1
                    kind: PyTorchJob
                    metadata: {name: eight-gpu-workers, namespace: reserved}
                    spec:
                      pytorchReplicaSpecs:
                        Worker:
                          replicas: 1
                          restartPolicy: OnFailure
                          template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "4", nvidia.com/gpu: "8"}}}]}}
                    """, PyTorchJob.class)).create();

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.v1().events().inNamespace("reserved").list().getItems())
                    .filteredOn(event -> job.getMetadata().getUid().equals(event.getInvolvedObject().getUid()))
                    .extracting(Event::getMessage)
                    .anySatisfy(message -> assertThat(message).isEqualTo("gave up on member cluster gpu-a and released its reservations; trying the"
                            + " next cluster: gpu-a: reservations not confirmed within 5s")));
        } finally {
            gpuA.faults().heal();
        }
    }

    private static PyTorchJob named(PyTorchJob manifest, JobRef job) {
        PyTorchJob copy = Manifests.copy(manifest);
        copy.getMetadata().setName(job.name());
        copy.getMetadata().setNamespace(job.namespace());
        return copy;
    }

    /** A job of {@code workers} workers of {@code gpus} GPUs each. */
    private static PyTorchJob gpuGang(JobRef job, int workers, int gpus) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: %s}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: %d
                      restartPolicy: OnFailure
                      template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "4", nvidia.com/gpu: "%d"}}}]}}
                """.formatted(job.name(), job.namespace(), workers, gpus), PyTorchJob.class);
    }

    /** A view as the fleet kubeconfig's user reads it. */
    private static String get(MusterService service, String path) throws Exception {
        return get(stack.view(service, path)).body();
    }

    private static HttpResponse<String> get(HttpRequest request) throws Exception {
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A view asked with this Authorization header (none when null). */
    private static HttpResponse<String> getAs(String authorization, MusterService service, String path) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.url(service) + path)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return get(request.build());
    }
}
