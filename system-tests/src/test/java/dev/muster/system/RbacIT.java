package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;

import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.simulator.cluster.AccessLog;
import dev.muster.simulator.cluster.AccessLog.Access;
import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Least privilege, checked against what the services did: every request each service made to the fleet's and the
 * members' API servers during the end-to-end tests before it (the simulator records them by the caller's user agent,
 * in RBAC's terms) must be allowed by that service's ClusterRole in the Helm chart, and every verb on every resource a
 * rule grants must have been used by someone. First it does what the other tests do not: a policy that propagates a
 * job's ConfigMap and Secret to its member, a job submitted and deleted on the Kafka path, placement crashed right
 * after reserving, a job moved between queues, jobs deleted while they run, quota nodes added and taken away. It runs
 * after every other test class of the module ({@code junit-platform.properties}).
 */
@Order(Integer.MAX_VALUE)
class RbacIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Path EXAMPLES = Path.of("..", "examples", "reclaim");
    private static final Path CHART = Path.of("..", "deploy", "helm", "muster");
    private static final Map<String, String> FLEET_ROLES = Map.of("muster-queue-service", "muster-queue-service",
            "muster-placement-service", "muster-placement-service", "muster-status-sync-service", "muster-status-sync-service");
    private static final String MEMBER_ROLE = "muster-member-access";

    @TempDir
    static Path manifests;
    private static MusterStack stack;
    private static Kubectl kubectl;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = SharedStack.get();
        kubectl = new Kubectl(stack.fleet.kubeconfig());
        kubectl.run("apply", "-f", EXAMPLES.resolve("setup.yaml").toString()).succeeded();
    }

    @Test
    void everyRequestOfEveryServiceIsAllowedByItsRoleAndEveryRuleGrantsOnlyWhatWasUsed() throws Exception {
        propagateAJobsConfigMapAndSecret();
        submitAndDeleteOnTheKafkaPath();
        reserveAfterACrashMoveAJobBetweenQueuesAndTakeTheNodesAway();
        repeatADecisionAfterARestart();

        Set<Access> accesses = AccessLog.accesses().stream().filter(access -> access.client().startsWith("muster-")).collect(Collectors.toSet());
        Map<String, ClusterRole> roles = clusterRoles();
        List<String> refused = new ArrayList<>();
        Set<String> used = new TreeSet<>();
        for (Access access : accesses) {
            String role = access.server().equals("fleet") ? FLEET_ROLES.get(access.client()) : MEMBER_ROLE;
            boolean allowed = role != null && roles.containsKey(role) && roles.get(role).getRules().stream().anyMatch(rule -> allows(rule, access));
            if (allowed) {
                used.add(role + " " + access.group() + " " + access.roleResource() + " " + access.verb());
            } else {
                refused.add(access.client() + " on a " + access.server() + ": " + access.verb() + " " + access.roleResource()
                        + (access.group().isEmpty() ? "" : "." + access.group()));
            }
        }
        assertThat(FLEET_ROLES.keySet()).as("every service's requests were recorded under its own name")
                .allMatch(client -> accesses.stream().anyMatch(access -> access.client().equals(client)));
        assertThat(refused).as("requests the services made that their ClusterRoles do not allow").isEmpty();

        List<String> unused = new ArrayList<>();
        for (String role : new TreeSet<>(roles.keySet())) {
            for (PolicyRule rule : roles.get(role).getRules()) {
                for (String group : rule.getApiGroups()) {
                    for (String resource : rule.getResources()) {
                        for (String verb : rule.getVerbs()) {
                            if (!used.contains(role + " " + group + " " + resource + " " + verb)) {
                                unused.add(role + ": " + verb + " " + resource + (group.isEmpty() ? "" : "." + group));
                            }
                        }
                    }
                }
            }
        }
        assertThat(unused).as("what the ClusterRoles grant that no service used in the end-to-end tests").isEmpty();
        System.out.printf("RBAC: %d distinct requests of the services, all allowed; %d grants, all used%n", accesses.size(), used.size());
    }

    private static boolean allows(PolicyRule rule, Access access) {
        return (rule.getApiGroups().contains("*") || rule.getApiGroups().contains(access.group()))
                && (rule.getResources().contains("*") || rule.getResources().contains(access.roleResource()))
                && (rule.getVerbs().contains("*") || rule.getVerbs().contains(access.verb()));
    }

    /** The chart's ClusterRoles for the fleet and for a member, by name, as helm template renders them. */
    private static Map<String, ClusterRole> clusterRoles() throws IOException {
        String rendered = new Helm(CHART).template().withName("muster").withNamespace("muster").withKubeVersion("1.30.0")
                .set("member.enabled", true).call();
        Map<String, ClusterRole> roles = new java.util.HashMap<>();
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (MappingIterator<JsonNode> documents = yaml.readerFor(JsonNode.class).readValues(rendered)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document != null && "ClusterRole".equals(document.path("kind").asText())) {
                    ClusterRole role = yaml.treeToValue(document, ClusterRole.class);
                    roles.put(role.getMetadata().getName(), role);
                }
            }
        }
        return roles;
    }

    /** Placement reads them on the fleet and writes them on the member, creating the first time and updating the second. */
    private static void propagateAJobsConfigMapAndSecret() throws Exception {
        try (KubernetesClient fleet = stack.fleet.connect()) {
            fleet.configMaps().inNamespace("team-a").resource(new ConfigMapBuilder().withNewMetadata().withName("rbac-settings").endMetadata()
                    .addToData("lr", "0.1").build()).createOr(existing -> existing.update());
            fleet.secrets().inNamespace("team-a").resource(new SecretBuilder().withNewMetadata().withName("rbac-token").endMetadata()
                    .addToStringData("token", "not-a-secret").build()).createOr(existing -> existing.update());
            String policy = document(Files.readString(EXAMPLES.resolve("setup.yaml")), "kind: PropagationPolicy", "namespace: team-a");
            apply("policy", policy.replace("spec:\n", "spec:\n  propagateDeps: true\n"));
            for (String name : List.of("rbac-deps-1", "rbac-deps-2")) {
                apply(name, """
                        apiVersion: kubeflow.org/v1
                        kind: PyTorchJob
                        metadata: {name: %s, namespace: team-a}
                        spec:
                          pytorchReplicaSpecs:
                            Master:
                              replicas: 1
                              template:
                                spec:
                                  containers:
                                    - name: pytorch
                                      image: pytorch
                                      resources: {limits: {cpu: "1"}}
                                      envFrom: [{configMapRef: {name: rbac-settings}}, {secretRef: {name: rbac-token}}]
                        """.formatted(name));
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(fleet, "team-a", name)).as("%s; logs: %s", name, stack.logs())
                        .isEqualTo("Running"));
            }
        }
    }

    /** Status sync writes the fleet object of a job submitted on the Kafka path, and deletes it when the job is deleted there. */
    private static void submitAndDeleteOnTheKafkaPath() throws Exception {
        JobRef job = new JobRef("team-a", "rbac-kafka", UUID.randomUUID().toString());
        PyTorchJob manifest = Manifests.read(MusterStack.oneMasterJob("team-a", "rbac-kafka", "cpu: \"1\""), PyTorchJob.class);
        try (var kafka = stack.kafkaAsOperator(); KubernetesClient fleet = stack.fleet.connect()) {
            kafka.send(Topics.SUBMISSIONS, JobEvent.create("/rbac", job, Instant.now(), new JobSubmitted(manifest)));
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(fleet, "team-a", "rbac-kafka")).isEqualTo("Running"));
            kafka.send(Topics.SUBMISSIONS, JobEvent.create("/rbac", job, Instant.now(), new JobDeleted("done with it")));
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.resources(PyTorchJob.class).inNamespace("team-a").withName("rbac-kafka").get())
                    .as("the Kafka job's fleet object, after its deletion on Kafka").satisfiesAnyOf(gone -> assertThat(gone).isNull(),
                            other -> assertThat(FleetJobs.eventUid(other)).isNotEqualTo(job.uid())));
        }
    }

    /**
     * A decision status sync told as an Event, read again after its restart (as when its commit was lost): the Event is
     * found there and not counted again; a later one like it is counted on it. Of a job the fleet does not show, so that
     * nothing else changes.
     */
    private static void repeatADecisionAfterARestart() throws Exception {
        JobRef job = new JobRef("team-a", "rbac-nowhere", UUID.randomUUID().toString());
        Instant decided = Instant.now().minusSeconds(3600);
        JobEvent refused = JobEvent.create("/rbac", job, decided, new PlacementFailed(Map.of("gpu-a", "excluded by the policy"),
                "no member cluster can take the whole gang now"));
        try (var kafka = stack.kafkaAsOperator(); KubernetesClient fleet = stack.fleet.connect()) {
            kafka.send(Topics.PLACEMENTS, refused);
            await().atMost(DEADLINE).until(() -> count(fleet, "rbac-nowhere") == 1);
            stack.restart(dev.muster.local.MusterService.STATUS_SYNC, Map.of());
            await().atMost(DEADLINE).until(() -> stack.ready(dev.muster.local.MusterService.STATUS_SYNC));
            kafka.send(Topics.PLACEMENTS, refused);
            kafka.send(Topics.PLACEMENTS, JobEvent.create("/rbac", job, decided.plusSeconds(60), refused.data()));
            await().atMost(DEADLINE).until(() -> count(fleet, "rbac-nowhere") == 2);
        }
    }

    /** How many times the fleet's Events on the job count the refusal told of it. */
    private static int count(KubernetesClient fleet, String name) {
        return fleet.v1().events().inNamespace("team-a").list().getItems().stream()
                .filter(event -> name.equals(event.getInvolvedObject().getName()) && "PlacementFailed".equals(event.getReason()))
                .mapToInt(event -> event.getCount() == null ? 1 : event.getCount()).sum();
    }

    /**
     * A quota node of its own, and on it: placement crashed right after reserving a gang on gpu-a (its next instance
     * reserves again and finds its reservations there); a job moved to another queue by a change of the tree (its
     * QueueUnit's spec changes); both jobs deleted while they run, gpu-a's training operator down (so their pods are
     * deleted by Muster, not collected by the operator); and the nodes
     * taken away again (their Queues deleted).
     */
    private static void reserveAfterACrashMoveAJobBetweenQueuesAndTakeTheNodesAway() throws Exception {
        String setup = Files.readString(EXAMPLES.resolve("setup.yaml"));
        String tree = document(setup, "kind: ElasticQuotaTree", "");
        apply("scratch", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: rbac-scratch}
                ---
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: scratch, namespace: rbac-scratch}
                spec:
                  suspension: {scheduling: true}
                  placement:
                    clusterAffinity: {clusterNames: [gpu-a]}
                    replicaScheduling: {replicaSchedulingType: Divided, customSchedulingType: Gang}
                  resourceSelectors: [{apiVersion: kubeflow.org/v1, kind: PyTorchJob}]
                """);
        apply("tree-with-scratch", tree.replace("    - name: research\n", """
                    - name: scratch
                      max: {cpu: 100, nvidia.com/gpu: 8, kube-queue/max-jobs: 1}
                      namespaces: [rbac-scratch]
                    - name: research
                """));
        try (KubernetesClient fleet = stack.fleet.connect()) {
            await().atMost(DEADLINE).until(() -> queueNames(fleet).stream().anyMatch(name -> name.startsWith("root-scratch")));
            // Unconfirmed, the reservations still hold nothing when placement is back: its next instance reserves again, and
            // finds them there.
            dev.muster.simulator.fault.ClusterFaults gpuA = stack.member("gpu-a").faults();
            gpuA.stopReservations();
            Path placementLog = stack.service(dev.muster.local.MusterService.PLACEMENT).log();
            long resumedBefore = linesWith(placementLog, "member writes resumed");
            stack.restart(dev.muster.local.MusterService.PLACEMENT, Map.of("muster.placement.crash-after", "reserved"));
            apply("reserved", gpuJob("rbac-reserved"));
            assertThat(stack.service(dev.muster.local.MusterService.PLACEMENT).awaitExit(DEADLINE)).as("placement crashed after reserving").isTrue();
            await().atMost(DEADLINE).until(() -> linesWith(placementLog, "member writes resumed") > resumedBefore + 1);
            gpuA.startReservations();
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(fleet, "rbac-scratch", "rbac-reserved")).as("logs: %s", stack.logs())
                    .isEqualTo("Running"));
            apply("waiting", gpuJob("rbac-waiting"));
            await().atMost(DEADLINE).until(() -> "Queuing".equals(state(fleet, "rbac-scratch", "rbac-waiting")));
            // Status sync restarted remembers none of what it wrote: the waiting job's next status is read and written
            // whole, its unit found there when it would be created.
            stack.restart(dev.muster.local.MusterService.STATUS_SYNC, Map.of());
            await().atMost(DEADLINE).until(() -> stack.ready(dev.muster.local.MusterService.STATUS_SYNC));
            // The namespace moves to a new node; the admitted job stays charged where it was admitted.
            apply("tree-moved", tree.replace("    - name: research\n", """
                        - name: scratch
                          max: {cpu: 100, nvidia.com/gpu: 8, kube-queue/max-jobs: 1}
                          namespaces: []
                        - name: scratch-b
                          max: {cpu: 100, nvidia.com/gpu: 8, kube-queue/max-jobs: 1}
                          namespaces: [rbac-scratch]
                        - name: research
                    """));
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(state(fleet, "rbac-scratch", "rbac-waiting")).isEqualTo("Running"));
            // gpu-a's training operator, which collects a deleted copy's pods there, is down: placement deletes them itself.
            gpuA.stopOperator();
            try {
                for (String name : List.of("rbac-reserved", "rbac-waiting")) {
                    fleet.resources(PyTorchJob.class).inNamespace("rbac-scratch").withName(name).delete();
                    await().atMost(DEADLINE).until(() -> stack.queueState("rbac-scratch", name).isEmpty());
                }
            } finally {
                gpuA.startOperator();
            }
            apply("tree", tree);
            await().atMost(DEADLINE).until(() -> queueNames(fleet).stream().noneMatch(name -> name.startsWith("root-scratch")));
        }
    }

    private static long linesWith(Path log, String text) throws IOException {
        try (java.util.stream.Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> line.contains(text)).count();
        }
    }

    private static String gpuJob(String name) {
        return MusterStack.oneMasterJob("rbac-scratch", name, "cpu: \"1\", nvidia.com/gpu: \"1\"");
    }

    /** The document of a multi-document manifest that holds both texts. */
    private static String document(String manifests, String kind, String also) {
        return java.util.Arrays.stream(manifests.split("\n---\n")).filter(document -> document.contains(kind) && document.contains(also)).findFirst()
                .orElseThrow();
    }

    private static List<String> queueNames(KubernetesClient fleet) {
        return fleet.resources(dev.muster.model.queue.Queue.class).inNamespace(dev.muster.model.queue.Queue.NAMESPACE).list().getItems().stream()
                .map(queue -> queue.getMetadata().getName()).toList();
    }

    private static String state(KubernetesClient fleet, String namespace, String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
        return job == null || job.getStatus() == null ? null : job.getStatus().currentCondition().map(JobCondition::type).orElse(null);
    }

    private static void apply(String name, String manifest) throws Exception {
        Path file = manifests.resolve(name + ".yaml");
        Files.writeString(file, manifest);
        kubectl.run("apply", "-f", file.toString()).succeeded();
    }
}
