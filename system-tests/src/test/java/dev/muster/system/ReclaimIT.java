package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;


import dev.muster.local.MusterService;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceNames;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A reclaim end to end, with the real kubectl: team-a borrows team-b's guaranteed GPUs, team-b's job arrives, and exactly
 * the expected borrowers (lowest priority, then newest) are stopped on their members before team-b's job is placed. At
 * every poll on the way, what the members hold (terminating pods included) is within every max and within what the quota
 * view charges; then the borrowers are readmitted when capacity frees. A reclaim during which placement and status sync
 * are killed ends the same, each step taken once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReclaimIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final List<String> MEMBERS = List.of("gpu-a", "gpu-b", "gpu-c");
    private static final List<String> TEAMS = List.of("team-a", "team-b");
    /** research's max: what team-a and team-b may hold together. */
    private static final BigDecimal RESEARCH_GPUS = BigDecimal.valueOf(16);
    private static final Path EXAMPLES = Path.of("..", "examples", "reclaim");
    private static final String TEAM_A = "root/research/team-a";
    private static final String TEAM_B = "root/research/team-b";
    private static final List<String> TEAM_A_JOBS = List.of("a-low", "a-2", "a-3", "a-4");
    private static MusterStack stack;
    private static KubernetesClient fleet;
    private static Kubectl kubectl;
    @org.junit.jupiter.api.io.TempDir
    static Path manifests;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = SharedStack.get();
        fleet = stack.fleet.connect();
        kubectl = new Kubectl(stack.fleet.kubeconfig());
        // The README's reclaim walkthrough: its namespaces, PriorityClass, tree and policies.
        kubectl.run("apply", "-f", EXAMPLES.resolve("setup.yaml").toString()).succeeded();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(queueUsage()).as("the tree is in force").containsKey(TEAM_B));
    }

    @AfterAll
    static void deleteTheJobsAndCloseClient() throws Exception {
        if (stack != null) {
            stack.deleteJobs("team-a", TEAM_A_JOBS);
            stack.deleteJobs("team-b", List.of("guaranteed", "after-crashes"));
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    private static String apply(String name, String manifest) throws Exception {
        Path file = manifests.resolve(name + ".yaml");
        Files.writeString(file, manifest);
        return kubectl.run("apply", "-f", file.toString()).succeeded();
    }

    /** team-a's jobs of the walkthrough, one by one: each is admitted before the next is applied, so which is newest is known. */
    private static List<String> teamAJobs() throws Exception {
        return Arrays.stream(Files.readString(EXAMPLES.resolve("team-a-jobs.yaml")).split("\n---\n")).toList();
    }

    /** team-a's jobs applied one by one, each running before the next (applying one that is there changes nothing). */
    private static void submitTeamA() throws Exception {
        List<String> jobs = teamAJobs();
        for (int i = 0; i < TEAM_A_JOBS.size(); i++) {
            apply(TEAM_A_JOBS.get(i), jobs.get(i));
            awaitRunning("team-a", TEAM_A_JOBS.get(i));
        }
    }

    /** team-b's guaranteed job of the walkthrough, under this name. */
    private static void submitGuaranteed(String name) throws Exception {
        apply(name, Files.readString(EXAMPLES.resolve("team-b-job.yaml")).replace("name: guaranteed,", "name: " + name + ","));
    }

    private static Optional<JobCondition> state(String namespace, String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
        return job == null || job.getStatus() == null ? Optional.empty() : job.getStatus().currentCondition();
    }

    private static void awaitRunning(String namespace, String... names) {
        await().atMost(DEADLINE).untilAsserted(() -> Arrays.stream(names).forEach(name -> assertThat(state(namespace, name))
                .as("%s; logs: %s", name, stack.logs()).map(JobCondition::type).contains("Running")));
    }

    private static List<Event> events(String namespace, String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
        return fleet.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> job.getMetadata().getUid().equals(event.getInvolvedObject().getUid())).toList();
    }

    /** The GPUs each quota node is charged, as {@code kubectl muster queues} shows them. */
    private static Map<String, BigDecimal> queueUsage() {
        return stack.quotaUsed(ResourceNames.GPU).orElseThrow(() -> new AssertionError("the queue service's view does not answer"));
    }

    /** The GPUs each team's pods hold on the members now: every pod not finished, terminating ones included. */
    private static Map<String, BigDecimal> membersGpus() {
        return stack.gpusHeld(TEAMS, MEMBERS);
    }

    /** What one poll finds wrong: members above a max, or holding more than the quota view charges. */
    private static List<String> violations() throws Exception {
        Map<String, BigDecimal> charged = queueUsage();
        Map<String, BigDecimal> held = membersGpus();
        List<String> found = new ArrayList<>();
        BigDecimal total = held.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        if (total.compareTo(RESEARCH_GPUS) > 0) {
            found.add("members hold " + total + " GPUs, above research's max 16: " + held);
        }
        for (String team : TEAMS) {
            BigDecimal teamHeld = held.getOrDefault(team, BigDecimal.ZERO);
            String node = "root/research/" + team;
            if (teamHeld.compareTo(charged.getOrDefault(node, BigDecimal.ZERO)) > 0) {
                found.add(team + "'s pods hold " + teamHeld + " GPUs, the quota view charges " + charged.get(node));
            }
        }
        return found;
    }

    private static List<String> podsOf(String namespace, String name) throws Exception {
        List<String> pods = new ArrayList<>();
        for (String member : MEMBERS) {
            try (KubernetesClient client = stack.member(member).connect()) {
                PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
                client.pods().inNamespace(namespace).withLabel(MemberJobs.FLEET_JOB_UID, job.getMetadata().getUid()).list().getItems()
                        .forEach(pod -> pods.add(member + "/" + pod.getMetadata().getName()));
            }
        }
        return pods;
    }

    /** Polls until the condition holds, checking the invariants at every poll; fails on the first poll that breaks one. */
    private static void watchInvariantsUntil(java.util.concurrent.Callable<Boolean> done) {
        List<String> broken = new ArrayList<>();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
            broken.addAll(violations());
            return !broken.isEmpty() || done.call();
        });
        assertThat(broken).as("logs: %s", stack.logs()).isEmpty();
    }

    @Test
    @Order(1)
    void theLowestPriorityThenNewestBorrowersAreStoppedOnTheirMembersBeforeTheGuaranteedJobTakesTheirGpus() throws Exception {
        submitTeamA();
        assertThat(queueUsage().get(TEAM_A)).isEqualByComparingTo("16");

        submitGuaranteed("guaranteed");

        watchInvariantsUntil(() -> state("team-b", "guaranteed").map(JobCondition::type).filter("Running"::equals).isPresent());
        for (String victim : List.of("a-low", "a-4")) {
            assertThat(podsOf("team-a", victim)).as("%s stopped whole", victim).isEmpty();
            assertThat(state("team-a", victim)).as(victim).map(JobCondition::type).contains("Queuing");
            assertThat(events("team-a", victim)).extracting(Event::getReason).contains("Preempted", "Stopped");
            assertThat(events("team-a", victim)).filteredOn(event -> "Preempted".equals(event.getReason())).singleElement()
                    .satisfies(event -> assertThat(event.getMessage()).startsWith("preempted for team-b/guaranteed: "));
        }
        assertThat(state("team-a", "a-2")).map(JobCondition::type).contains("Running");
        assertThat(state("team-a", "a-3")).map(JobCondition::type).contains("Running");
        assertThat(events("team-b", "guaranteed")).filteredOn(event -> "Reclaiming".equals(event.getReason())).extracting(Event::getMessage)
                .containsExactlyInAnyOrder("preempted team-a/a-low to take back borrowed capacity; admitted once it has stopped on its member",
                        "preempted team-a/a-4 to take back borrowed capacity; admitted once it has stopped on its member");

        // Capacity frees: the borrowers come back, the higher priority first.
        kubectl.run("delete", "pytorchjob", "guaranteed", "-n", "team-b").succeeded();
        watchInvariantsUntil(() -> Set.of("a-low", "a-4").stream().allMatch(name -> state("team-a", name).map(JobCondition::type)
                .filter("Running"::equals).isPresent()));
        assertThat(queueUsage().get(TEAM_A)).isEqualByComparingTo("16");
        assertThat(queueUsage().get(TEAM_B)).isEqualByComparingTo("0");
        assertThat(membersGpus().get("team-a")).as("the quota view agrees with the members once settled").isEqualByComparingTo("16");
    }

    /** In the fault tier: it kills two services, and runs on its own there (after the test above in a run of both). */
    @Test
    @Order(2)
    @FaultTier
    void aReclaimDuringWhichPlacementAndStatusSyncAreKilledStopsEachVictimOnceAndAdmitsTheReclaimerOnce() throws Exception {
        submitTeamA();
        // Run after the walkthrough, the victims were preempted and stopped once already.
        Map<String, Long> preemptedBefore = new HashMap<>();
        Map<String, Long> evictedBefore = new HashMap<>();
        try (JobEventClient kafka = new JobEventClient(stack.bootstrapServers())) {
            List<JobEvent> placements = kafka.readAll(Topics.PLACEMENTS);
            List<JobEvent> admissions = kafka.readAll(Topics.ADMISSIONS);
            for (String victim : List.of("a-low", "a-4")) {
                preemptedBefore.put(victim, distinctIds(admissions, victim, EventType.PREEMPTED));
                evictedBefore.put(victim, distinctIds(placements, victim, EventType.EVICTED));
            }
        }
        long preemptedEvents = events("team-a", "a-4").stream().filter(event -> "Preempted".equals(event.getReason())).count();

        submitGuaranteed("after-crashes");
        await().atMost(DEADLINE).until(() -> events("team-a", "a-4").stream().filter(event -> "Preempted".equals(event.getReason())).count()
                == preemptedEvents + 1);
        // Mid-reclaim: the victims' pods take 3 s to stop, and placement is asking their members whether they are gone.
        stack.service(MusterService.PLACEMENT).kill();
        stack.service(MusterService.STATUS_SYNC).kill();

        await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> assertThat(state("team-b", "after-crashes"))
                .as("logs: %s", stack.logs()).map(JobCondition::type).contains("Running"));
        assertThat(violations()).isEmpty();
        try (JobEventClient kafka = new JobEventClient(stack.bootstrapServers())) {
            List<JobEvent> placements = kafka.readAll(Topics.PLACEMENTS);
            List<JobEvent> admissions = kafka.readAll(Topics.ADMISSIONS);
            for (String victim : List.of("a-low", "a-4")) {
                assertThat(distinctIds(admissions, victim, EventType.PREEMPTED)).as("%s preempted once by this reclaim", victim)
                        .isEqualTo(preemptedBefore.get(victim) + 1);
                assertThat(distinctIds(placements, victim, EventType.EVICTED)).as("%s stopped once by this reclaim", victim)
                        .isEqualTo(evictedBefore.get(victim) + 1);
                assertThat(podsOf("team-a", victim)).isEmpty();
            }
            assertThat(distinctIds(admissions, "after-crashes", EventType.ADMITTED)).as("the reclaimer admitted once").isEqualTo(1);
        }
        kubectl.run("delete", "pytorchjob", "after-crashes", "-n", "team-b").succeeded();
    }

    private static long distinctIds(List<JobEvent> events, String name, EventType type) {
        return events.stream().filter(event -> event.job().name().equals(name) && EventType.of(event.data()) == type).map(JobEvent::id)
                .distinct().count();
    }
}
