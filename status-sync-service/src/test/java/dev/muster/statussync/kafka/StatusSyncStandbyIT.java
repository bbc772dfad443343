package dev.muster.statussync.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.EventType;
import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceProcess;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Two packaged status-sync services in one consumer group: the active one watches the members and reports their
 * jobs, the other stands by watching nothing; killed with -9 while jobs are placed at ten a second, the active is
 * replaced by the standby within 10 s, which reports every job placed, and none twice under two ids. And the broker
 * killed under the same load and started again: every job is reported, none twice under two ids. And an instance taking
 * over reads the failovers its predecessor published before it watches any member.
 */
@FaultTier
class StatusSyncStandbyIT {

    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** What the issue asks of every service: a standby takes over within 10 s of the active's death. */
    private static final Duration TAKEOVER = Duration.ofSeconds(10);
    private static final String ACTIVE = "active: this instance owns the job events";
    private static final String STANDING_BY = "standing by: another instance owns the job events";

    private KafkaBroker broker;
    private SimulatedFleet members;
    private Map<String, String> settings;

    @BeforeEach
    void start() throws Exception {
        broker = KafkaBroker.start();
        MusterTopics.create(broker, 3);
        members = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "fleet.yaml")), Files.createTempDirectory("members"));
        settings = new HashMap<>(Map.of("kafka.bootstrap.servers", broker.bootstrapServers(), "muster.status-sync.health-interval", "1s"));
        settings.putAll(members.memberSettings("muster.status-sync.members"));
    }

    @AfterEach
    void stop() throws Exception {
        if (members != null) {
            members.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theStandbyTakesOverWithinTenSecondsOfTheActivesDeathUnderLoadAndReportsEveryJobOnce() throws Exception {
        List<JobRef> placed = new ArrayList<>();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess active = ServiceProcess.start(JAR, settings, DEADLINE)) {
            awaitLog(active, ACTIVE, DEADLINE);
            placed.add(place(client, "before-the-kill", "gpu-a"));
            JobEvent reported = awaitRunning(client, placed.get(0));

            try (ServiceProcess standby = ServiceProcess.start(JAR, settings, DEADLINE)) {
                awaitLog(standby, STANDING_BY, DEADLINE);
                assertThat(Files.readString(standby.log())).as("the standby watches no member").doesNotContain("watching member ");
                // So its member views say why they show nothing, rather than an empty fleet.
                assertThat(membersView(active).statusCode()).as("the active instance's member view").isEqualTo(200);
                assertThat(membersView(standby).statusCode()).as("the standby's member view").isEqualTo(503);
                assertThat(membersView(standby).body()).contains("does not watch the members");

                // Ten jobs a second, the kill in the middle of them: those placed while no instance watches are found on takeover.
                Instant killed = null;
                for (int i = 0; i < 30; i++) {
                    if (i == 15) {
                        active.kill();
                        killed = Instant.now();
                    }
                    placed.add(place(client, "load-" + i, i % 2 == 0 ? "gpu-a" : "gpu-b"));
                    Thread.sleep(100);
                }
                awaitLog(standby, ACTIVE, TAKEOVER.minus(Duration.between(killed, Instant.now())));
                System.out.printf("the standby took over %d ms after the active was killed%n", Duration.between(killed, Instant.now()).toMillis());
                for (JobRef job : placed) {
                    awaitRunning(client, job);
                }

                // The standby judged every copy afresh when it took over: what it saw again carries the id it had.
                Map<JobRef, Set<String>> runningIds = runningIds(client);
                assertThat(runningIds.get(placed.get(0))).as("Running reports of the job placed before the kill; log %s", standby.log())
                        .containsOnly(reported.id());
                for (JobRef job : placed) {
                    assertThat(runningIds.get(job)).as("the Running reports of %s (a repeat carries the same id)", job).hasSize(1);
                }
                assertThat(membersView(standby).body()).as("the member view once taken over").contains("\"name\":\"before-the-kill\"");
            }
        }
    }

    @Test
    void theBrokerKilledUnderLoadAndStartedAgainEveryJobIsReportedRunningOnce() throws Exception {
        List<JobRef> placed = new ArrayList<>();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess active = ServiceProcess.start(JAR, settings, DEADLINE)) {
            awaitLog(active, ACTIVE, DEADLINE);
            // Ten jobs a second; the broker killed as a crash would in the middle of them, started again 10 s later. The
            // jobs placed meanwhile run on their members, and what status sync saw of them waits to be reported; their
            // bindings reach Kafka once it is back (as placement's would: this test's producer does not wait for a broker).
            List<Runnable> bindings = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                if (i == 10) {
                    awaitRunning(client, placed.get(5));
                    broker.kill();
                }
                if (i == 20) {
                    broker.startAgain();
                    bindings.forEach(Runnable::run);
                }
                String cluster = i % 2 == 0 ? "gpu-a" : "gpu-b";
                PyTorchJob job = copyOn(cluster, "load-" + i);
                JobRef ref = new JobRef("default", job.getMetadata().getName(), job.getMetadata().getUid());
                placed.add(ref);
                Runnable bind = () -> bind(client, ref, job, cluster);
                if (i >= 10 && i < 20) {
                    bindings.add(bind);
                    Thread.sleep(1_000);
                } else {
                    bind.run();
                    Thread.sleep(100);
                }
            }
            for (JobRef job : placed) {
                awaitRunning(client, job);
            }
            Map<JobRef, Set<String>> runningIds = runningIds(client);
            for (JobRef job : placed) {
                assertThat(runningIds.get(job)).as("the Running reports of %s (a repeat carries the same id); log %s", job, active.log()).hasSize(1);
            }
        }
    }

    /**
     * A predecessor that died as the broker took its failover of a copy, before recording the copy as left, and the copy
     * ran to its end meanwhile: the instance that takes over reads that failover before it lists any member, so it purges
     * the copy and never reports its end as the job's, however fast the member answers. A failover another source sent,
     * and a record that cannot be read, change nothing and stop nothing.
     */
    @Test
    void anInstanceTakingOverReadsItsPredecessorsFailoversBeforeAnyMemberAndNeverTakesTheCopyLeftForTheJobs() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            PyTorchJob job = copyOn("gpu-a", "left-behind");
            JobRef ref = new JobRef("default", "left-behind", job.getMetadata().getUid());
            bind(client, ref, job, "gpu-a");
            var member = members.cluster("gpu-a").orElseThrow();
            String copyUid;
            try (KubernetesClient api = member.connect()) {
                await().atMost(DEADLINE).until(() -> !member.completeJob("default", "left-behind").isEmpty());
                await().atMost(DEADLINE).until(() -> api.resources(PyTorchJob.class).inNamespace("default").withName("left-behind").get()
                        .getStatus().currentCondition().filter(condition -> "Succeeded".equals(condition.type())).isPresent());
                copyUid = api.resources(PyTorchJob.class).inNamespace("default").withName("left-behind").get().getMetadata().getUid();
            }
            // Another job running on gpu-a, and a failover of its copy from another source than status sync: never obeyed.
            PyTorchJob stays = copyOn("gpu-a", "stays");
            JobRef staysRef = new JobRef("default", "stays", stays.getMetadata().getUid());
            bind(client, staysRef, stays, "gpu-a");
            String staysCopyUid;
            try (KubernetesClient api = member.connect()) {
                staysCopyUid = api.resources(PyTorchJob.class).inNamespace("default").withName("stays").get().getMetadata().getUid();
            }
            client.send(Topics.MEMBER_STATUS, new JobEvent(JobEvent.observedId(staysRef.uid(), EventType.FAILOVER_TRIGGERED, staysCopyUid + "|failover"),
                    "/mallory", staysRef, Instant.now(), new FailoverTriggered("gpu-a", "NodeNotReady", "forged", "Immediately")));
            // And a record no reader can read, on the way.
            client.sendRaw(Topics.MEMBER_STATUS, "gpu-a", "{not an event".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            // The failover as the predecessor published it: the id of a failover names the copy it left.
            client.send(Topics.MEMBER_STATUS, new JobEvent(JobEvent.observedId(ref.uid(), EventType.FAILOVER_TRIGGERED, copyUid + "|failover"),
                    JobMirror.SOURCE, ref, Instant.now(), new FailoverTriggered("gpu-a", "NodeNotReady", "node gpu-a-0 is NotReady for 30s", "Immediately")));

            // A fleet API to answer the failover's fleet writes (the job is not there: they are refused), which the purge follows.
            try (FleetApiServer fleet = FleetApiServer.start(Files.createTempDirectory("fleet"));
                 ServiceProcess active = ServiceProcess.start(JAR, withFleetApi(fleet), DEADLINE)) {
                awaitLog(active, "1 failovers read on " + Topics.MEMBER_STATUS + " before its consumer reads them", DEADLINE);
                try (KubernetesClient api = member.connect()) {
                    await().atMost(DEADLINE).until(() -> api.resources(PyTorchJob.class).inNamespace("default").withName("left-behind").get() == null);
                }
                awaitLog(active, "job default/left-behind: purged its copy on gpu-a (the job failed over)", DEADLINE);
                assertThat(client.readAll(Topics.MEMBER_STATUS, JobEvent.class)).filteredOn(event -> event.data() instanceof JobFinished)
                        .as("the end of the copy the job left; log %s", active.log()).isEmpty();
                try (KubernetesClient api = member.connect()) {
                    assertThat(api.resources(PyTorchJob.class).inNamespace("default").withName("stays").get())
                            .as("the copy a forged failover named").isNotNull();
                }
            }
        }
    }

    private Map<String, String> withFleetApi(FleetApiServer fleet) {
        Map<String, String> withFleet = new HashMap<>(settings);
        withFleet.put("quarkus.kubernetes-client.api-server-url", fleet.url());
        return withFleet;
    }

    /** Does what placement does once the gang fits: the member copy, then the binding event. */
    private JobRef place(JobEventClient client, String name, String cluster) throws Exception {
        PyTorchJob job = copyOn(cluster, name);
        JobRef ref = new JobRef("default", name, job.getMetadata().getUid());
        bind(client, ref, job, cluster);
        return ref;
    }

    @Test
    void aPodRemovedWhileNoInstanceWatchedIsReportedGoneByTheNextSoPlacementDoesNotCountItForGood() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             KubernetesClient member = members.cluster("gpu-a").orElseThrow().connect()) {
            member.pods().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                    .withNewMetadata().withName("removed-unseen").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();
            try (ServiceProcess first = ServiceProcess.start(JAR, settings, DEADLINE)) {
                awaitLog(first, ACTIVE, DEADLINE);
                client.await(Topics.INVENTORY, MemberEvent.class, report -> report.data() instanceof MemberEventData.PodReported pod
                        && pod.cluster().equals("gpu-a") && pod.pod().name().equals("removed-unseen"), DEADLINE);
                first.kill();
            }
            member.pods().inNamespace("default").withName("removed-unseen").withGracePeriod(0).delete();
            await().atMost(DEADLINE).until(() -> member.pods().inNamespace("default").withName("removed-unseen").get() == null);

            try (ServiceProcess next = ServiceProcess.start(JAR, settings, DEADLINE)) {
                awaitLog(next, ACTIVE, DEADLINE);
                client.await(Topics.INVENTORY, MemberEvent.class, report -> report.data().equals(
                        new MemberEventData.PodRemoved("gpu-a", "default", "removed-unseen")), DEADLINE);
                assertThat(Files.readString(next.log())).contains("member gpu-a: 1 of the pods reported before this watch began are gone");
            }
        }
    }

    private PyTorchJob copyOn(String cluster, String name) throws Exception {
        PyTorchJob job = Seed.job("default", name);
        job.getMetadata().setUid(UUID.randomUUID().toString());
        try (KubernetesClient member = members.cluster(cluster).orElseThrow().connect()) {
            member.resources(PyTorchJob.class).inNamespace("default").resource(MemberJobs.forMember(job, job.getMetadata().getUid(), null, 0,
                    Optional.empty())).create();
        }
        return job;
    }

    private static void bind(JobEventClient client, JobRef ref, PyTorchJob job, String cluster) {
        client.send(Topics.PLACEMENTS, JobEvent.create("/muster/placement-service", ref, Instant.now(),
                JobBound.of(cluster, null, JobDemand.of(job).podCounts())));
    }

    /** The ids of every job's Running reports on the member-status topic. */
    private static Map<JobRef, Set<String>> runningIds(JobEventClient client) throws Exception {
        Map<JobRef, Set<String>> ids = new HashMap<>();
        client.readAll(Topics.MEMBER_STATUS).stream()
                .filter(event -> event.data() instanceof MemberStatusChanged changed && changed.state().equals("Running"))
                .forEach(event -> ids.computeIfAbsent(event.job(), job -> new HashSet<>()).add(event.id()));
        return ids;
    }

    private static JobEvent awaitRunning(JobEventClient client, JobRef job) throws Exception {
        return client.await(Topics.MEMBER_STATUS, event -> event.job().equals(job) && event.data() instanceof MemberStatusChanged changed
                && changed.state().equals("Running"), DEADLINE);
    }

    /** Every PyTorchJob on every member, as {@code kubectl muster get pytorchjobs} asks status sync. */
    private static java.net.http.HttpResponse<String> membersView(ServiceProcess statusSync) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + statusSync.port() + "/api/v1/members/pytorchjobs")).timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitLog(ServiceProcess service, String line, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(Files.readString(service.log()))
                .as("log %s", service.log()).contains(line));
    }
}
