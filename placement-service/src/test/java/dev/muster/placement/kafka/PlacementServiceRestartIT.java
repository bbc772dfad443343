package dev.muster.placement.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceProcess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * The packaged placement service crashes at each step of binding a job (its decision committed with no member
 * written yet, its reservations made, its member copy made, its binding written), or is killed after, and is started
 * again: the job is bound exactly once, with one copy on one member and no reservation left over. Crashed right after
 * asking a member to stop a reclaim's victim, it finishes the stop and reports it once.
 */
@FaultTier
class PlacementServiceRestartIT {

    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Path STATUS_SYNC = Path.of("..", "status-sync-service", "target", "quarkus-app", "quarkus-run.jar");
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** A broker of its own for each test: a crashed service leaves uncommitted input and state behind it. */
    private KafkaBroker broker;
    private SimulatedFleet members;
    private ServiceProcess statusSync;
    private ServiceProcess placement;
    private Map<String, String> placementSettings;

    @BeforeEach
    void start() throws Exception {
        broker = KafkaBroker.start();
        MusterTopics.create(broker, 3);
        members = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "fleet.yaml")), Files.createTempDirectory("members"));
        Map<String, String> sync = new HashMap<>(Map.of("kafka.bootstrap.servers", broker.bootstrapServers(),
                "muster.status-sync.health-interval", "1s"));
        // Restarted under the same name, as a StatefulSet's pod is: the crashed instance's open transaction is fenced.
        Map<String, String> place = new HashMap<>(Map.of("kafka.bootstrap.servers", broker.bootstrapServers(),
                "muster.placement.instance-id", "placement-0"));
        sync.putAll(members.memberSettings("muster.status-sync.members"));
        place.putAll(members.memberSettings("muster.placement.members"));
        statusSync = ServiceProcess.start(STATUS_SYNC, sync, DEADLINE);
        placementSettings = place;
    }

    @AfterEach
    void stop() throws Exception {
        if (placement != null) {
            placement.close();
        }
        if (statusSync != null) {
            statusSync.close();
        }
        if (members != null) {
            members.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static JobEvent admit(JobEventClient client, String name) {
        PyTorchJob job = Seed.job("default", name);
        JobRef ref = new JobRef("default", name, UUID.randomUUID().toString());
        job.getMetadata().setUid(ref.uid());
        JobEvent admitted = JobEvent.create("/muster/queue-service", ref, Instant.now(), new JobAdmitted(job, null, null, JobDemand.of(job).total()));
        client.send(Topics.ADMISSIONS, admitted);
        return admitted;
    }

    @ParameterizedTest(name = "crashed after {0}")
    @ValueSource(strings = {"committed", "reserved", "created", "bound"})
    void crashedAtEachStepOfABindingTheRestartedServiceBindsTheJobOnce(String step) throws Exception {
        Map<String, String> crashing = new HashMap<>(placementSettings);
        crashing.put("muster.placement.crash-after", step);
        placement = ServiceProcess.start(JAR, crashing, DEADLINE);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent admitted = admit(client, "pytorch-test");
            assertThat(placement.awaitExit(DEADLINE)).as("crashed after %s; log %s", step, placement.log()).isTrue();

            placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);

            assertBoundOnceWithOneCopy(client, admitted);
        }
    }

    private static JobBound awaitBound(JobEventClient client, JobEvent admitted) {
        return (JobBound) client.await(Topics.PLACEMENTS, event -> event.job().equals(admitted.job()) && event.data() instanceof JobBound,
                DEADLINE).data();
    }

    private void assertBoundOnceWithOneCopy(JobEventClient client, JobEvent admitted) throws Exception {
        JobBound bound = awaitBound(client, admitted);
        List<JobEvent> bindings = client.readAll(Topics.PLACEMENTS).stream()
                .filter(event -> event.job().equals(admitted.job()) && event.data() instanceof JobBound).toList();
        assertThat(bindings).as("JobBound events (a repeat carries the same id); log %s", placement.log())
                .extracting(JobEvent::id).containsOnly(bindings.get(0).id());
        assertOneCopyOn(bound.cluster(), "pytorch-test");
        for (SimulatedCluster member : members.clusters()) {
            if (!member.spec().supportsReservation()) {
                continue;
            }
            try (KubernetesClient memberClient = member.connect()) {
                // Released ones may take a moment to go; the gang's own three stay, used by its pods.
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(memberClient.resources(Reservation.class).list().getItems())
                        .filteredOn(reservation -> reservation.getMetadata().getName().startsWith("pytorch-test-"))
                        .as("reservations on %s", member.name())
                        .hasSize(member.name().equals(bound.cluster()) && bound.reservation() != null ? 3 : 0));
            }
        }
    }

    @Test
    void aCopyWhoseCreationIsNotAnsweredAsItsMemberIsCutOffIsTheJobsOnlyCopy() throws Exception {
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
        // Whichever member placement creates the copy on is cut off as it answers: the copy is made, placement never told.
        members.clusters().forEach(member -> member.faults().unreachableAtTheAnswerTo("POST /apis/kubeflow.org/v1/namespaces/default/pytorchjobs"));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent admitted = admit(client, "pytorch-test");
            SimulatedCluster cut = await().atMost(DEADLINE).until(() -> members.clusters().stream()
                    .filter(member -> member.faults().active().unreachable()).findFirst(), java.util.Optional::isPresent).orElseThrow();
            members.clusters().forEach(member -> member.faults().unreachableAtTheAnswerTo(null));
            Thread.sleep(5_000); // the outage held, past placement's own retries of the request, not a wait for a condition
            cut.faults().reachable();

            assertBoundOnceWithOneCopy(client, admitted);
            assertThat(awaitBound(client, admitted).cluster()).as("bound where its unanswered creation made the copy").isEqualTo(cut.name());
            assertThat(Files.readString(placement.log())).contains("creating the job on " + cut.name() + " failed");
        }
    }

    /**
     * A backlog read in one batch whose decisions outnumber what the transactional emitter buffers (128 by default) beyond
     * the records in flight to the broker (1,024 by default; one here, so that a few hundred decisions are enough): the
     * long storm's placement aborted such a batch, read it again and aborted it again, for good.
     */
    @Test
    void aBacklogOfHundredsOfAdmissionsIsDecidedInTransactionsThatCommit() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            java.util.Set<JobRef> admitted = new java.util.HashSet<>();
            for (int i = 0; i < 300; i++) {
                admitted.add(admit(client, "backlog-" + i).job());
            }
            Map<String, String> oneInFlight = new HashMap<>(placementSettings);
            oneInFlight.put("mp.messaging.outgoing.placements.max-inflight-messages", "1");

            placement = ServiceProcess.start(JAR, oneInFlight, DEADLINE);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(client.readAll(Topics.PLACEMENTS).stream().map(JobEvent::job)
                    .filter(admitted::contains).distinct().count()).as("jobs with a placement decision; log %s", placement.log())
                    .isEqualTo(admitted.size()));
        }
    }

    @Test
    void killedAfterBindingItDoesNotPlaceTheJobAgain() throws Exception {
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent first = admit(client, "pytorch-test");
            JobBound bound = awaitBound(client, first);

            List<JobEvent> before = client.readAll(Topics.PLACEMENTS).stream().filter(event -> event.job().equals(first.job())).toList();

            placement.kill();
            placement.startAgain(DEADLINE);
            JobEvent second = admit(client, "pytorch-test-2");
            client.await(Topics.PLACEMENTS, event -> event.job().equals(second.job()) && event.data() instanceof JobBound, DEADLINE);

            // The restarted service placed another job, so it is past its restore: nothing new about the first. Killed
            // between publishing the binding and its state record, it binds again where the copy is, under the same id.
            assertThat(client.readAll(Topics.PLACEMENTS)).filteredOn(event -> event.job().equals(first.job()))
                    .as("log %s", placement.log()).extracting(JobEvent::id)
                    .containsOnlyOnceElementsOf(before.stream().map(JobEvent::id).toList().subList(0, 1))
                    .containsOnly(before.stream().map(JobEvent::id).toArray(String[]::new));
            assertOneCopyOn(bound.cluster(), "pytorch-test");
        }
    }

    @Test
    void crashedRightAfterStoppingAReclaimsVictimTheRestartedServiceFinishesTheStopAndReportsItOnce() throws Exception {
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent admitted = admit(client, "pytorch-test");
            JobBound bound = awaitBound(client, admitted);

            placement.kill();
            placement.startAgain(DEADLINE, Map.of("muster.placement.crash-after", "evicted"));
            client.send(Topics.ADMISSIONS, admitted.followUp("/muster/queue-service", admitted.job(), Instant.now(),
                    new JobPreempted("default/reclaimer", UUID.randomUUID().toString(), "team-b reclaims its min")));
            assertThat(placement.awaitExit(DEADLINE)).as("crashed after asking %s to stop the job; log %s", bound.cluster(), placement.log())
                    .isTrue();

            placement.startAgain(DEADLINE);

            // Quota frees the victim's charge on this event alone: it must come, once, and only when the copy is gone.
            JobEvicted evicted = (JobEvicted) client.await(Topics.PLACEMENTS,
                    event -> event.job().equals(admitted.job()) && event.data() instanceof JobEvicted, DEADLINE).data();
            assertThat(evicted.cluster()).as("log %s", placement.log()).isEqualTo(bound.cluster());
            assertNoCopyAnywhere("pytorch-test");
            List<JobEvent> stops = client.readAll(Topics.PLACEMENTS).stream()
                    .filter(event -> event.job().equals(admitted.job()) && event.data() instanceof JobEvicted).toList();
            assertThat(stops).as("JobEvicted events (a repeat carries the same id); log %s", placement.log())
                    .extracting(JobEvent::id).containsOnly(stops.get(0).id());
        }
    }

    /**
     * Crashed after creating a member copy, before recording the answer: while placement is down the job runs to its end,
     * its owner deletes it and its copy is purged. The restarted placement owes the creation by its state, but
     * reads what its inputs say happened meanwhile first: it does not run the deleted job again (an 18-minute fault storm
     * found one 8-GPU gang run a second time, its quota already given to the next job).
     */
    @Test
    void crashedAfterCreatingACopyThatRanToItsEndAndWasDeletedMeanwhileTheRestartedServiceDoesNotCreateItAgain() throws Exception {
        Map<String, String> crashing = new HashMap<>(placementSettings);
        crashing.put("muster.placement.crash-after", "created");
        placement = ServiceProcess.start(JAR, crashing, DEADLINE);
        PyTorchJob job = Seed.job("default", "pytorch-test");
        // Its pods exit a second after they start.
        job.getSpec().pytorchReplicaSpecs().values().forEach(replicas -> replicas.template().setMetadata(
                new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().addToAnnotations("muster.dev/duration", "1s").build()));
        JobRef ref = new JobRef("default", "pytorch-test", UUID.randomUUID().toString());
        job.getMetadata().setUid(ref.uid());
        List<Watch> watches = new java.util.ArrayList<>();
        List<KubernetesClient> memberClients = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", ref, Instant.now(), new JobAdmitted(job, null, null,
                    JobDemand.of(job).total())));
            assertThat(placement.awaitExit(DEADLINE)).as("crashed after creating the copy; log %s", placement.log()).isTrue();
            client.await(Topics.MEMBER_STATUS, event -> event.job().equals(ref) && event.data() instanceof JobFinished, DEADLINE);
            client.send(Topics.SUBMISSIONS, JobEvent.create("/muster/queue-service", ref, Instant.now(), new JobDeleted("its owner deletes it")));
            // Purged as status sync purges a deleted job's copies (this one has no fleet API to write to, and its writes wait).
            for (SimulatedCluster member : members.clusters()) {
                try (KubernetesClient memberClient = member.connect()) {
                    memberClient.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").delete();
                    await().atMost(DEADLINE).until(() -> memberClient.resources(PyTorchJob.class).inNamespace("default")
                            .withName("pytorch-test").get() == null);
                }
            }
            for (SimulatedCluster member : members.clusters()) {
                KubernetesClient memberClient = member.connect();
                memberClients.add(memberClient);
                watches.add(memberClient.resources(PyTorchJob.class).inNamespace("default").watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, PyTorchJob copy) {
                        if (action == Action.ADDED && copy.getMetadata().getName().equals("pytorch-test")) {
                            created.incrementAndGet();
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                }));
            }

            placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
            // Past its restore, its backlog and the reconciliation once it has bound a job admitted after the restart.
            JobEvent next = admit(client, "pytorch-next");
            awaitBound(client, next);

            assertThat(created.get()).as("copies of the deleted job created after the restart; log %s", placement.log()).isZero();
            assertNoCopyAnywhere("pytorch-test");
            assertThat(Files.readString(placement.log())).contains("is not carried out: the inputs since say the job moved on");
        } finally {
            watches.forEach(Watch::close);
            memberClients.forEach(KubernetesClient::close);
        }
    }

    @Test
    void killedUnderLoadItsStandbyTakesOverWithinTenSecondsAndBindsEveryJobOnce() throws Exception {
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
        Map<String, String> standbySettings = new HashMap<>(placementSettings);
        standbySettings.put("muster.placement.instance-id", "placement-1");
        List<JobEvent> admitted = new java.util.ArrayList<>();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess standby = ServiceProcess.start(JAR, standbySettings, DEADLINE)) {
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(Files.readString(standby.log())).as("log %s", standby.log())
                    .contains("standing by: another instance owns the inputs").contains("warmed up for a takeover")
                    .doesNotContain("placement state restored"));
            // A standby reads no inventory: its fit view says so rather than answer from members as it never saw them.
            assertThat(fitView(placement).statusCode()).as("the owner's fit view").isEqualTo(200);
            assertThat(fitView(standby).statusCode()).as("the standby's fit view").isEqualTo(503);
            assertThat(fitView(standby).body()).contains("does not own the inputs");
            // Ten jobs a second, the kill in the middle of them.
            for (int i = 0; i < 40; i++) {
                if (i == 20) {
                    placement.kill();
                    Instant killed = Instant.now();
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                            assertThat(Files.readString(standby.log())).as("log %s", standby.log()).contains("placement state restored"));
                    System.out.printf("the standby took over %d ms after the active was killed%n", Duration.between(killed, Instant.now()).toMillis());
                    // What the killed owner left open is aborted at once, not when its transaction times out.
                    assertThat(Files.readString(standby.log())).contains("fenced the previous owner's transactional id muster-placement-service-placement-0");
                }
                admitted.add(admit(client, "load-" + i));
                Thread.sleep(100);
            }
            for (JobEvent job : admitted) {
                try {
                    client.await(Topics.PLACEMENTS, event -> event.job().equals(job.job()) && event.data() instanceof JobBound, DEADLINE);
                } catch (AssertionError e) {
                    throw new AssertionError(job.job() + " not bound after the broker's restart; placement's last warnings:\n"
                            + placement.lastProblems(15) + "\n" + e.getMessage(), e);
                }
            }
            assertEachBoundOnceWithOneCopy(client, admitted);
            assertThat(fitView(standby).statusCode()).as("the fit view once taken over").isEqualTo(200);
            assertThat(fitView(standby).body()).contains("\"cluster\":\"gpu-a\"");
        }
    }

    /** Where a seed job would fit now, as {@code kubectl muster explain} asks the placement service. */
    private static java.net.http.HttpResponse<String> fitView(ServiceProcess placement) throws Exception {
        String body = "{\"job\":" + dev.muster.model.json.Manifests.toJson(Seed.job("default", "asking")) + "}";
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + placement.port() + "/api/v1/fit")).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theBrokerKilledUnderLoadAndStartedAgainLosesNoJobAndBindsEachOnce() throws Exception {
        // A transaction open through the outage is aborted by the broker once back, and its producer fenced for good:
        // placement then exits, and is started again as its pod would be.
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE).restartedOnExit(DEADLINE);
        List<JobEvent> admitted = new java.util.ArrayList<>();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            // Ten jobs a second; once the first half's bindings are under way, the broker is killed as a crash would
            // kill it, and started again ten seconds later.
            for (int i = 0; i < 40; i++) {
                if (i == 20) {
                    JobEvent early = admitted.get(5);
                    client.await(Topics.PLACEMENTS, event -> event.job().equals(early.job()) && event.data() instanceof JobBound, DEADLINE);
                    long boundBefore = client.readAll(Topics.PLACEMENTS).stream().filter(event -> event.data() instanceof JobBound).count();
                    broker.kill();
                    System.out.printf("the broker killed with %d of the first 20 jobs bound%n", boundBefore);
                    Thread.sleep(10_000);
                    broker.startAgain();
                }
                admitted.add(admit(client, "load-" + i));
                Thread.sleep(100);
            }
            for (JobEvent job : admitted) {
                try {
                    client.await(Topics.PLACEMENTS, event -> event.job().equals(job.job()) && event.data() instanceof JobBound, DEADLINE);
                } catch (AssertionError e) {
                    throw new AssertionError(job.job() + " not bound after the broker's restart; placement's last warnings:\n"
                            + placement.lastProblems(15) + "\n" + e.getMessage(), e);
                }
            }
            assertEachBoundOnceWithOneCopy(client, admitted);
        }
    }

    /**
     * A broker can hand placement's group committed offsets older than its state: a long storm saw them go back 14 minutes
     * across a broker restart, and placement placed again 1,508 jobs it had bound, stopped and forgotten, deleted ones
     * included. Here a job is bound, deleted and stopped, the group is sent back to the beginning of every input, and the
     * restarted placement decides nothing about that job again.
     */
    @Test
    void aGroupSentBackToTheBeginningDoesNotMakePlacementPlaceAgainAJobThatWasDeleted() throws Exception {
        String group = "muster-placement-service";
        placement = ServiceProcess.start(JAR, placementSettings, DEADLINE);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent deleted = admit(client, "pytorch-test");
            awaitBound(client, deleted);
            client.send(Topics.SUBMISSIONS, JobEvent.create("/muster/queue-service", deleted.job(), Instant.now(), new JobDeleted("its owner deletes it")));
            client.await(Topics.PLACEMENTS, event -> event.job().equals(deleted.job()) && event.data() instanceof JobEvicted, DEADLINE);
            List<JobEvent> before = client.readAll(Topics.PLACEMENTS).stream().filter(event -> event.job().equals(deleted.job())).toList();

            placement.kill();
            broker.rewindGroup(group, List.of(Topics.ADMISSIONS, Topics.INVENTORY, Topics.SUBMISSIONS, Topics.MEMBER_STATUS,
                    Topics.PLACEMENT_RESULTS), DEADLINE);
            placement.startAgain(DEADLINE);
            JobEvent next = admit(client, "pytorch-next");
            awaitBound(client, next);
            // What placement decides on a record it produces in the transaction that commits past it.
            await("placement has read the admissions and deletions again").atMost(DEADLINE)
                    .until(() -> broker.groupReadToTheEnd(group, List.of(Topics.ADMISSIONS, Topics.SUBMISSIONS)));

            assertThat(client.readAll(Topics.PLACEMENTS)).filteredOn(event -> event.job().equals(deleted.job()))
                    .as("the deleted job's placement events; log %s", placement.log()).hasSameSizeAs(before);
            assertNoCopyAnywhere("pytorch-test");
        }
    }

    private void assertEachBoundOnceWithOneCopy(JobEventClient client, List<JobEvent> admitted) throws Exception {
        Map<JobRef, List<String>> bindings = new HashMap<>();
        client.readAll(Topics.PLACEMENTS).stream().filter(event -> event.data() instanceof JobBound)
                .forEach(event -> bindings.computeIfAbsent(event.job(), job -> new java.util.ArrayList<>()).add(event.id()));
        for (JobEvent job : admitted) {
            assertThat(bindings.get(job.job()).stream().distinct()).as("the bindings of %s (a repeat carries the same id)", job.job()).hasSize(1);
        }
        Map<String, Integer> copies = new HashMap<>();
        for (SimulatedCluster member : members.clusters()) {
            try (KubernetesClient memberClient = member.connect()) {
                memberClient.resources(PyTorchJob.class).inNamespace("default").list().getItems()
                        .forEach(copy -> copies.merge(copy.getMetadata().getName(), 1, Integer::sum));
            }
        }
        assertThat(copies).as("member copies by job, across members").hasSize(admitted.size()).allSatisfy((name, count) -> assertThat(count).isOne());
    }

    private void assertNoCopyAnywhere(String name) throws Exception {
        for (SimulatedCluster member : members.clusters()) {
            try (KubernetesClient client = member.connect()) {
                assertThat(client.resources(PyTorchJob.class).inNamespace("default").withName(name).get()).as("a copy on " + member.name()).isNull();
                if (!member.spec().supportsReservation()) {
                    continue;
                }
                // Released with the stop; they may take a moment to go.
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(client.resources(Reservation.class).list().getItems())
                        .filteredOn(reservation -> reservation.getMetadata().getName().startsWith(name + "-"))
                        .as("reservations on %s", member.name()).isEmpty());
            }
        }
    }

    private void assertOneCopyOn(String cluster, String name) throws Exception {
        for (SimulatedCluster member : members.clusters()) {
            try (KubernetesClient client = member.connect()) {
                PyTorchJob copy = client.resources(PyTorchJob.class).inNamespace("default").withName(name).get();
                if (member.name().equals(cluster)) {
                    assertThat(copy).as("the copy on " + cluster).isNotNull();
                } else {
                    assertThat(copy).as("a copy on " + member.name()).isNull();
                }
            }
        }
    }
}
