package dev.muster.statussync.kubernetes;

import static io.restassured.RestAssured.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.MemberEventData.MemberRemoved;
import dev.muster.model.event.MemberEventData.MemberReported;
import dev.muster.model.event.Topics;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Members join, change and leave while the service runs, by their kubeconfig files appearing in, changing in and going from the members directory. */
@QuarkusTest
@TestProfile(MemberDirectoryTests.WatchingADirectory.class)
@WithTestResource(KafkaBrokerTestResource.class)
class MemberDirectoryTests {

    static final Path DIRECTORY = Path.of("target", "members-directory");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    public static class WatchingADirectory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.status-sync.members-directory", DIRECTORY.toString(), "muster.status-sync.members-rescan", "300ms",
                    "muster.status-sync.health-interval", "500ms");
        }
    }

    @InjectKafkaBroker
    KafkaBroker broker;

    /** A kubeconfig naming an endpoint where nothing listens, as one left from a cluster that has moved. */
    private static final String STALE_KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters: [{name: cluster-a, cluster: {server: "http://127.0.0.1:9"}}]
            users: [{name: muster, user: {token: stale}}]
            contexts: [{name: cluster-a, context: {cluster: cluster-a, user: muster}}]
            current-context: cluster-a
            """;

    /** The tests run in either order; each needs the directory the service watches. */
    @BeforeEach
    void createTheMembersDirectory() throws Exception {
        Files.createDirectories(DIRECTORY);
    }

    @Test
    void aClusterJoinsWhenItsKubeconfigAppearsAndLeavesWhenItGoes() throws Exception {
        Files.writeString(DIRECTORY.resolve("cluster-a.kubeconfig"), STALE_KUBECONFIG);
        await().atMost(DEADLINE).until(() -> get("/q/metrics").then().extract().asString()
                .contains("muster_status_member_healthy{member=\"cluster-a\"} 0.0"));

        // The simulated fleet writes cluster-a's kubeconfig anew, with its real endpoint: status sync follows the change.
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             SimulatedFleet joining = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml")), DIRECTORY)) {
            client.await(Topics.INVENTORY, MemberEvent.class, event -> event.data() instanceof MemberReported reported
                    && reported.cluster().equals("cluster-a") && reported.member().reachable(), DEADLINE);
            client.await(Topics.INVENTORY, MemberEvent.class, event -> event.data() instanceof MemberReported reported
                    && reported.cluster().equals("cluster-b") && reported.member().reachable(), DEADLINE);
            assertThat(get("/q/metrics").then().extract().asString()).contains("muster_status_member_healthy{member=\"cluster-b\"} 1.0");

            Files.delete(DIRECTORY.resolve("cluster-b.kubeconfig"));

            client.await(Topics.INVENTORY, MemberEvent.class, event -> event.data().equals(new MemberRemoved("cluster-b")), DEADLINE);
            assertThat(get("/q/metrics").then().extract().asString()).doesNotContain("muster_status_member_healthy{member=\"cluster-b\"}")
                    .contains("muster_status_member_healthy{member=\"cluster-a\"} 1.0");
        }
    }

    /**
     * A member that answers but fails its first lists of PyTorchJobs, as an API server under load does: fabric8's informer
     * stopped for good on the first one, and the member's jobs were never seen. Now readiness says so until the lists
     * answer, and then the jobs are seen.
     */
    @Test
    void aMemberWhoseFirstJobListsFailIsWatchedOnceTheyAnswerAndIsNotReadyMeanwhile() throws Exception {
        Path elsewhere = Files.createTempDirectory("members-elsewhere");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             SimulatedFleet joining = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml")), elsewhere);
             KubernetesClient member = joining.cluster("cluster-b").orElseThrow().connect()) {
            joining.cluster("cluster-b").orElseThrow().faults().failLists("pytorchjobs", 3);
            PyTorchJob copy = MemberJobs.forMember(Seed.job("default", "seen-late"), "fleet-uid-seen-late", null, 0, Optional.empty());
            member.resources(PyTorchJob.class).inNamespace("default").resource(copy).create();

            Files.copy(elsewhere.resolve("cluster-b.kubeconfig"), DIRECTORY.resolve("cluster-late.kubeconfig"),
                    StandardCopyOption.REPLACE_EXISTING);

            await().atMost(DEADLINE).untilAsserted(() -> get("/q/health/ready").then().statusCode(503)
                    .body(containsString("cluster-late pytorchjobs")));
            JobEvent seen = client.await(Topics.MEMBER_STATUS, event -> event.job().uid().equals("fleet-uid-seen-late"), DEADLINE);
            assertThat(((MemberStatusChanged) seen.data()).cluster()).isEqualTo("cluster-late");
            await().atMost(DEADLINE).untilAsserted(() -> get("/q/health/ready").then().statusCode(200));
        } finally {
            Files.deleteIfExists(DIRECTORY.resolve("cluster-late.kubeconfig"));
        }
    }
}
