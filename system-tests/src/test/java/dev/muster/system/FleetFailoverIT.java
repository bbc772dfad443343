package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.muster.local.MusterService;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.testing.FaultTier;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Status sync and failover end to end: jobs applied to the fleet API, queued, placed and run on the seed's
 * simulated members by the three packaged services; then members fail, once with status sync crashing right after
 * its failover.
 */
@FaultTier
class FleetFailoverIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern BOUND_TO = Pattern.compile("Result: \\{([^:]+):0,");
    private static MusterStack stack;
    private static KubernetesClient fleet;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = SharedStack.get();
        fleet = stack.fleet.connect();
        // Straight to placement: these jobs are in no namespace the quota tree binds.
        fleet.resources(PropagationPolicy.class).inNamespace("default").resource(policy("default", 30)).create();
        fleet.resources(PropagationPolicy.class).inNamespace("blips").resource(policy("blips", 15)).create();
        fleet.resources(PropagationPolicy.class).inNamespace("outage").resource(policy("outage", 10)).create();
    }

    @AfterAll
    static void closeClient() {
        if (fleet != null) {
            fleet.close();
        }
    }

    /** The seed's gang policy with failover after {@code tolerationSeconds}, in a namespace of its own. */
    private static PropagationPolicy policy(String namespace, int tolerationSeconds) {
        String yaml = Seed.text(Seed.POLICY_GANG).replace("namespace: default", "namespace: " + namespace)
                .replace("tolerationSeconds: 30", "tolerationSeconds: " + tolerationSeconds);
        return Manifests.read(yaml, PropagationPolicy.class);
    }

    private static PyTorchJob apply(String namespace, String name) {
        return fleet.resources(PyTorchJob.class).inNamespace(namespace).resource(Seed.job(namespace, name)).create();
    }

    private static Optional<JobCondition> state(PyTorchJob job) {
        PyTorchJob current = fleet.resources(PyTorchJob.class).inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName()).get();
        return current == null || current.getStatus() == null ? Optional.empty() : current.getStatus().currentCondition();
    }

    private static List<Event> events(PyTorchJob job) {
        return fleet.v1().events().inNamespace(job.getMetadata().getNamespace()).list().getItems().stream()
                .filter(event -> job.getMetadata().getUid().equals(event.getInvolvedObject().getUid()))
                .sorted(Comparator.comparing(Event::getLastTimestamp)).toList();
    }

    /** The clusters the fleet's binding events name, oldest first. */
    private static List<String> boundTo(PyTorchJob job) {
        return events(job).stream().filter(event -> "ScheduleBindingSucceed".equals(event.getReason())).map(event -> {
            Matcher matcher = BOUND_TO.matcher(event.getMessage());
            return matcher.find() ? matcher.group(1) : event.getMessage();
        }).toList();
    }

    private static List<Pod> pods(SimulatedCluster member, PyTorchJob job) throws Exception {
        try (KubernetesClient client = member.connect()) {
            return client.pods().inNamespace(job.getMetadata().getNamespace())
                    .withLabel(GangPod.JOB_NAME_LABEL, job.getMetadata().getName()).list().getItems();
        }
    }

    private static String runningCluster(PyTorchJob job) {
        stack.awaitJob(job.getMetadata().getNamespace(), job.getMetadata().getName(), DEADLINE, () -> {
            assertThat(state(job)).as("fleet state").map(JobCondition::type).contains("Running");
            assertThat(boundTo(job)).isNotEmpty();
        });
        return boundTo(job).get(boundTo(job).size() - 1);
    }

    /** The job's copy on a member it left, and its pods, are gone once that member answers again. */
    private static void awaitPurged(SimulatedCluster member, PyTorchJob job) {
        String name = job.getMetadata().getName();
        stack.awaitJob(job.getMetadata().getNamespace(), name, DEADLINE, () -> {
            try (KubernetesClient client = member.connect()) {
                assertThat(client.resources(PyTorchJob.class).inNamespace(job.getMetadata().getNamespace()).withName(name).get()).isNull();
                assertThat(pods(member, job)).isEmpty();
            } catch (KubernetesClientException e) {
                throw new AssertionError("the member is not back yet", e);
            }
        });
    }

    @Test
    void aMemberUnreachableLongerThanTheTolerationMovesTheJobAndTheFleetShowsWhere() throws Exception {
        PyTorchJob job = apply("default", "moving");
        String first = runningCluster(job);
        assertThat(events(job)).extracting(Event::getMessage)
                .contains("Binding has been scheduled successfully. Result: {" + first + ":0,[{master 1} {worker 2}]}");
        SimulatedCluster lost = stack.member(first);

        lost.faults().unreachable();
        try {
            stack.awaitJob("default", "moving", Duration.ofSeconds(90), () -> {
                assertThat(events(job)).extracting(Event::getReason).contains("FailoverTriggered");
                assertThat(boundTo(job)).hasSize(2).first().isEqualTo(first);
                assertThat(state(job)).map(JobCondition::type).contains("Running");
            });
            assertThat(events(job)).filteredOn(event -> "FailoverTriggered".equals(event.getReason())).singleElement()
                    .satisfies(event -> assertThat(event.getMessage()).startsWith("failing over from " + first + " (MemberUnreachable): member "
                            + first + " is unreachable for 3").endsWith("(toleration 30s); purge mode Immediately"));
            String second = boundTo(job).get(1);
            assertThat(second).isNotEqualTo(first);
            assertThat(pods(stack.member(second), job)).hasSize(3)
                    .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
        } finally {
            lost.faults().heal();
        }
        // Purge mode Immediately: the copy left behind goes as soon as its member answers again.
        awaitPurged(lost, job);
    }

    /**
     * Status sync crashed as the broker took its failover, before it recorded the copy the job left; placement down
     * meanwhile, so that the job is not placed again before the member answers; and the copy left behind ran to its end
     * while its member was cut off. The restarted status sync learns of the failover from the log: it purges that copy
     * and never takes its end for the job's (which would have freed the job's quota and binding while it waits to run).
     */
    @Test
    void statusSyncCrashedOnceItsFailoverIsOnTheBrokerTheRestartedOnePurgesTheCopyLeftBehindAndNeverTakesItsEndForTheJobs() throws Exception {
        PyTorchJob job = apply("default", "crash-moving");
        String first = runningCluster(job);
        SimulatedCluster lost = stack.member(first);
        // Restarted, and ready again, with the crash point armed.
        stack.restart(MusterService.STATUS_SYNC, Map.of("muster.status-sync.crash-after", "failed-over"));

        stack.stopService(MusterService.PLACEMENT);
        try {
            lost.faults().unreachable();
            assertThat(stack.service(MusterService.STATUS_SYNC).awaitExit(Duration.ofSeconds(90)))
                    .as("status sync crashed once its failover of the job was on the broker").isTrue();
            await().atMost(DEADLINE).until(() -> stack.ready(MusterService.STATUS_SYNC));
            assertThat(lost.completeJob("default", "crash-moving")).hasSize(3);
            lost.faults().heal();
            awaitPurged(lost, job);
            assertThat(state(job)).as("fleet state").map(JobCondition::type).isNotEqualTo(Optional.of("Succeeded"));
        } finally {
            lost.faults().heal();
            stack.startService(MusterService.PLACEMENT);
        }
        // The restarted instance never decided this failover: it learns of it from the log, as placement does.
        stack.awaitJob("default", "crash-moving", Duration.ofSeconds(90), () -> {
            assertThat(boundTo(job)).hasSize(2).first().isEqualTo(first);
            assertThat(state(job)).map(JobCondition::type).contains("Running");
        });
        assertThat(events(job)).filteredOn(event -> "FailoverTriggered".equals(event.getReason())).hasSize(1);
        assertThat(pods(stack.member(boundTo(job).get(1)), job)).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
        fleet.resources(PyTorchJob.class).inNamespace("default").withName("crash-moving").delete();
    }

    /**
     * Status sync killed as a member is cut off, and started again while it still is: the new instance cannot list that
     * member, and judges its copies from what the one before recorded. The job fails over once the toleration has passed,
     * not once the member answers again.
     */
    @Test
    void statusSyncStartedWhileAMemberIsCutOffFailsItsJobOverAfterTheToleration() throws Exception {
        PyTorchJob job = apply("default", "moving-unseen");
        String first = runningCluster(job);
        SimulatedCluster lost = stack.member(first);

        lost.faults().unreachable();
        stack.service(MusterService.STATUS_SYNC).kill();
        try {
            await().atMost(DEADLINE).until(() -> stack.ready(MusterService.STATUS_SYNC));
            stack.awaitJob("default", "moving-unseen", Duration.ofSeconds(150), () -> {
                assertThat(boundTo(job)).hasSize(2).first().isEqualTo(first);
                assertThat(state(job)).map(JobCondition::type).contains("Running");
            });
            assertThat(events(job)).filteredOn(event -> "FailoverTriggered".equals(event.getReason())).singleElement()
                    .satisfies(event -> assertThat(event.getMessage()).startsWith("failing over from " + first + " (MemberUnreachable)"));
        } finally {
            lost.faults().heal();
        }
        awaitPurged(lost, job);
        fleet.resources(PyTorchJob.class).inNamespace("default").withName("moving-unseen").delete();
    }

    /**
     * Placement down while a job fails over, and started again once the member the job left answers, before status sync
     * (down too by then) has purged the copy there: the new placement reads that member, and must not take the copy the
     * job left for its binding, or the purge would leave the job with no copy at all.
     */
    @Test
    void placementStartedBeforeTheOldCopyIsPurgedPlacesTheJobElsewhereAndLeavesThatCopyToThePurge() throws Exception {
        PyTorchJob job = apply("default", "moving-unplaced");
        String first = runningCluster(job);
        SimulatedCluster lost = stack.member(first);

        stack.stopService(MusterService.PLACEMENT);
        try {
            lost.faults().unreachable();
            stack.awaitJob("default", "moving-unplaced", Duration.ofSeconds(90), () ->
                    assertThat(events(job)).extracting(Event::getReason).contains("FailoverTriggered"));
            stack.stopService(MusterService.STATUS_SYNC);
            lost.faults().heal();
            long reconciledBefore = reconciled(first);
            stack.startService(MusterService.PLACEMENT);
            await("placement read " + first + " after its start").atMost(DEADLINE).until(() -> reconciled(first) > reconciledBefore);
        } finally {
            lost.faults().heal();
            // Whatever the test got to: both run again for the next test.
            stack.startService(MusterService.PLACEMENT);
            stack.startService(MusterService.STATUS_SYNC);
        }

        stack.awaitJob("default", "moving-unplaced", Duration.ofSeconds(90), () -> {
            assertThat(state(job)).map(JobCondition::type).contains("Running");
            assertThat(boundTo(job)).as("bound first where it ran, then elsewhere, and never back to the copy it left")
                    .hasSize(2).first().isEqualTo(first);
        });
        String second = boundTo(job).get(1);
        assertThat(second).isNotEqualTo(first);
        awaitPurged(lost, job);
        assertThat(pods(stack.member(second), job)).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
        fleet.resources(PyTorchJob.class).inNamespace("default").withName("moving-unplaced").delete();
    }

    /**
     * Awaits the job bound a second time, away from {@code first}, and running there whole, after one failover whose
     * Event starts with {@code failover}.
     */
    private static void movedOnce(PyTorchJob job, String first, Duration deadline, String failover) throws Exception {
        stack.awaitJob(job.getMetadata().getNamespace(), job.getMetadata().getName(), deadline, () -> {
            assertThat(boundTo(job)).hasSize(2).first().isEqualTo(first);
            assertThat(state(job)).map(JobCondition::type).contains("Running");
        });
        assertThat(events(job)).filteredOn(event -> "FailoverTriggered".equals(event.getReason())).singleElement()
                .satisfies(event -> assertThat(event.getMessage()).startsWith(failover));
        String second = boundTo(job).get(1);
        assertThat(second).isNotEqualTo(first);
        assertThat(pods(stack.member(second), job)).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
    }

    /** How many times placement's log says it squared this member's holdings with its state, after a start. */
    private static long reconciled(String member) throws java.io.IOException {
        try (java.util.stream.Stream<String> log = java.nio.file.Files.lines(stack.service(MusterService.PLACEMENT).log(), java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return log.filter(line -> line.contains("member " + member + " reconciled:")).count();
        }
    }

    @Test
    void aBlipShorterThanTheTolerationLeavesTheJobWhereItIs() throws Exception {
        PyTorchJob job = apply("blips", "steady");
        String cluster = runningCluster(job);
        SimulatedCluster member = stack.member(cluster);

        member.faults().unreachable();
        try {
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(events(job)).extracting(Event::getReason).contains("Unknown"));
        } finally {
            member.faults().heal();
        }

        // Longer than the 15 s toleration since the member went away: a failover would have been decided by now.
        await().during(Duration.ofSeconds(16)).atMost(Duration.ofSeconds(20)).until(() ->
                events(job).stream().noneMatch(event -> "FailoverTriggered".equals(event.getReason())));
        assertThat(boundTo(job)).containsExactly(cluster);
        assertThat(state(job)).map(JobCondition::type).contains("Running");
        assertThat(pods(member, job)).hasSize(3);
        // Done: out of the way of the other tests' faults.
        fleet.resources(PyTorchJob.class).inNamespace("blips").withName("steady").delete();
    }

    /**
     * Someone deletes the job's copy on its member, as {@code kubectl delete} there would: the job is not left bound to
     * nothing with its quota held for good; it fails over after its toleration, and the fleet says why.
     */
    @Test
    void aCopyDeletedOnItsMemberNotByMusterFailsTheJobOverAndTheFleetSaysWhy() throws Exception {
        PyTorchJob job = apply("default", "deleted-there");
        String first = runningCluster(job);

        try (KubernetesClient member = stack.member(first).connect()) {
            member.resources(PyTorchJob.class).inNamespace("default").withName("deleted-there").delete();
        }

        movedOnce(job, first, Duration.ofSeconds(90), "failing over from " + first + " (CopyDeleted): the job's copy on "
                + first + " was deleted there, not by Muster for 3");
        fleet.resources(PyTorchJob.class).inNamespace("default").withName("deleted-there").delete();
    }

    /**
     * The same deletion while status sync is down: the next instance finds the copy its predecessor recorded gone from
     * its member, and the job fails over rather than stay bound to nothing (the next instance used to forget the copy).
     */
    @Test
    void aCopyDeletedOnItsMemberWhileStatusSyncIsDownFailsTheJobOverOnceItIsBack() throws Exception {
        PyTorchJob job = apply("default", "deleted-unwatched");
        String first = runningCluster(job);

        stack.stopService(MusterService.STATUS_SYNC);
        try (KubernetesClient member = stack.member(first).connect()) {
            member.resources(PyTorchJob.class).inNamespace("default").withName("deleted-unwatched").delete();
        } finally {
            stack.startService(MusterService.STATUS_SYNC);
        }

        movedOnce(job, first, Duration.ofSeconds(120), "failing over from " + first + " (CopyDeleted)");
        fleet.resources(PyTorchJob.class).inNamespace("default").withName("deleted-unwatched").delete();
    }

    /**
     * The broker is away when a job's failover is decided, for longer than status sync's producer waits for an event (10 s
     * on this stack): the copy the job leaves stays on its member until the failover is on the broker, and the job moves
     * once the broker is back. Before, the event was given up and the copy purged: the job was left bound to nothing. The
     * node's reports to placement, given up alike, are sent again too, and status sync stays live: a send given up is tried
     * again, not a reason for Kubernetes to restart it.
     */
    @Test
    void aFailoverDecidedWhileTheBrokerIsAwayIsToldOnceItIsBackAndTheCopyItLeavesWaitsForThat() throws Exception {
        PyTorchJob job = apply("outage", "told-later");
        String first = runningCluster(job);
        SimulatedCluster member = stack.member(first);
        String node = pods(member, job).get(0).getSpec().getNodeName();

        stack.broker().stop();
        try {
            member.faults().nodeNotReady(node);
            await("status sync gave the failover up once").atMost(Duration.ofSeconds(90))
                    .until(() -> statusSyncLogged("job outage/told-later: the broker did not take its dev.muster.job.failover-triggered"));
            // So did it the node's report, which is not made again unless the node changes: it is sent again too.
            await("status sync gave the node's report up once").atMost(Duration.ofSeconds(90))
                    .until(() -> statusSyncLogged(first + ": the broker did not take its report of " + first + "/node/" + node));
            try (KubernetesClient client = member.connect()) {
                assertThat(client.resources(PyTorchJob.class).inNamespace("outage").withName("told-later").get())
                        .as("the copy on " + first + ", before its job's failover is on the broker").isNotNull();
            }
        } finally {
            member.faults().nodeReady(node);
            stack.broker().startAgain();
        }

        stack.awaitJob("outage", "told-later", Duration.ofSeconds(120), () -> {
            assertThat(boundTo(job)).hasSize(2).first().isEqualTo(first);
            assertThat(state(job)).map(JobCondition::type).contains("Running");
        });
        // The Event comes from status sync's consumer, which may read the failover after the member shows the job Running.
        await("the fleet job's FailoverTriggered Event").atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(events(job))
                .filteredOn(event -> "FailoverTriggered".equals(event.getReason())).isNotEmpty()
                .allSatisfy(event -> assertThat(event.getMessage()).startsWith("failing over from " + first + " (NodeNotReady)")));
        String second = boundTo(job).get(1);
        assertThat(second).isNotEqualTo(first);
        awaitPurged(member, job);
        assertThat(pods(stack.member(second), job)).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
        await("status sync live after its sends were given up").atMost(Duration.ofSeconds(30))
                .until(() -> stack.live(MusterService.STATUS_SYNC));
        fleet.resources(PyTorchJob.class).inNamespace("outage").withName("told-later").delete();
    }

    private static boolean statusSyncLogged(String text) throws java.io.IOException {
        try (java.util.stream.Stream<String> log = java.nio.file.Files.lines(stack.service(MusterService.STATUS_SYNC).log(), java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return log.anyMatch(line -> line.contains(text));
        }
    }

    @Test
    void deletingTheFleetJobDeletesItsMemberCopyAndPods() throws Exception {
        PyTorchJob job = apply("default", "deleted");
        String cluster = runningCluster(job);

        fleet.resources(PyTorchJob.class).inNamespace("default").withName("deleted").delete();

        stack.awaitJob("default", "deleted", DEADLINE, () -> {
            try (KubernetesClient member = stack.member(cluster).connect()) {
                assertThat(member.resources(PyTorchJob.class).inNamespace("default").withName("deleted").get()).isNull();
            }
            assertThat(pods(stack.member(cluster), job)).isEmpty();
        });
    }
}
