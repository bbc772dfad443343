package dev.muster.statussync.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.muster.fleetclient.raw.MetadataLists;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData.MemberReported;
import dev.muster.model.event.MemberEventData.NodeReported;
import dev.muster.model.event.MemberEventData.PodRemoved;
import dev.muster.model.event.MemberEventData.PodReported;
import dev.muster.model.event.Topics;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.testing.SimulatedMembersTestResource;
import dev.muster.simulator.testing.SimulatedMembersTestResource.InjectSimulatedMembers;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Member observations reach the inventory topic, over a real broker, from simulated members. */
@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
@WithTestResource(value = SimulatedMembersTestResource.class, initArgs = {
        @ResourceArg(name = SimulatedMembersTestResource.PREFIX, value = "muster.status-sync.members"),
        @ResourceArg(name = "muster.status-sync.health-interval", value = "500ms")})
class MemberWatchesTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @InjectKafkaBroker
    KafkaBroker broker;

    @InjectSimulatedMembers
    SimulatedFleet members;

    @Test
    void eachMemberAndItsNodesAreReportedWithReservationSupport() {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            MemberReported a = member(client, "cluster-a", true);
            assertThat(a.member().reservationSupported()).isTrue();
            assertThat(a.member().labels()).containsEntry("region", "cn-hangzhou");
            assertThat(member(client, "cluster-b", true).member().reservationSupported()).isFalse();

            MemberEvent node = client.await(Topics.INVENTORY, MemberEvent.class,
                    event -> event.data() instanceof NodeReported reported && reported.node().name().equals("cluster-b-cpu-1"), DEADLINE);
            assertThat(node.key()).isEqualTo("cluster-b");
            assertThat(((NodeReported) node.data()).node().allocatable().format("cpu")).isEqualTo("4");
        }
    }

    @Test
    void aPodIsReportedWhereItRunsAndWhenItIsGone() throws Exception {
        SimulatedCluster clusterA = members.cluster("cluster-a").orElseThrow();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient memberA = clusterA.connect()) {
            memberA.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("observed").withNamespace("default")
                    .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("busybox").withNewResources()
                    .withRequests(Map.of("cpu", new Quantity("2"))).endResources().endContainer().endSpec().build()).create();

            MemberEvent bound = client.await(Topics.INVENTORY, MemberEvent.class, event -> event.data() instanceof PodReported reported
                    && reported.pod().name().equals("observed") && reported.pod().node() != null, DEADLINE);
            assertThat(((PodReported) bound.data()).pod().request().format("cpu")).isEqualTo("2");

            memberA.pods().inNamespace("default").withName("observed").delete();
            client.await(Topics.INVENTORY, MemberEvent.class,
                    event -> event.data().equals(new PodRemoved("cluster-a", "default", "observed")), DEADLINE);
        }
    }

    @Test
    void anUnreachableMemberIsReportedAndSoIsItsReturn() {
        SimulatedCluster clusterB = members.cluster("cluster-b").orElseThrow();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            member(client, "cluster-b", true);
            clusterB.faults().unreachable();
            try {
                MemberReported down = member(client, "cluster-b", false);
                assertThat(down.member().lastSeenHealthy()).isNotNull();
            } finally {
                clusterB.faults().heal();
            }
            // Back: a reachable report after the unreachable one.
            client.await(Topics.INVENTORY, MemberEvent.class, new java.util.function.Predicate<>() {
                private boolean sawDown;

                @Override
                public boolean test(MemberEvent event) {
                    if (event.data() instanceof MemberReported reported && reported.cluster().equals("cluster-b")) {
                        if (!reported.member().reachable()) {
                            sawDown = true;
                        } else if (sawDown) {
                            return true;
                        }
                    }
                    return false;
                }
            }, DEADLINE);
        }
    }

    /** What each watch is audited against: a simulated member's lists of names, the same objects as its whole lists. */
    @Test
    void theAuditsListsOfAMemberNameEveryObjectItsWholeListsHold() throws Exception {
        SimulatedCluster clusterA = members.cluster("cluster-a").orElseThrow();
        try (KubernetesClient memberA = clusterA.connect()) {
            memberA.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("audited").withNamespace("default")
                    .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();
            memberA.resources(PyTorchJob.class).inNamespace("default").resource(Seed.job("default", "audited"))
                    .create();
            // The member's operator creates the job's pods meanwhile: compared once both lists agree on them.
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(names(memberA, Pod.class)).contains("default/audited", "default/audited-master-0")
                    .isEqualTo(keys(memberA.pods().inAnyNamespace().list().getItems())));
            assertThat(names(memberA, PyTorchJob.class)).contains("default/audited")
                    .isEqualTo(keys(memberA.resources(PyTorchJob.class).inAnyNamespace().list().getItems()));
            assertThat(names(memberA, Node.class)).isNotEmpty()
                    .isEqualTo(keys(memberA.nodes().list().getItems()));
            assertThat(names(memberA, Reservation.class))
                    .isEqualTo(keys(memberA.resources(Reservation.class).list().getItems()));
        }
    }

    private static Set<String> names(KubernetesClient member, Class<? extends HasMetadata> kind) {
        return keys(MetadataLists.of(member, ResourceDefinitionContext.fromResourceType(kind)));
    }

    private static Set<String> keys(List<? extends HasMetadata> objects) {
        return objects.stream().map(Cache::metaNamespaceKeyFunc)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static MemberReported member(JobEventClient client, String cluster, boolean reachable) {
        return (MemberReported) client.await(Topics.INVENTORY, MemberEvent.class, event -> event.data() instanceof MemberReported reported
                && reported.cluster().equals(cluster) && reported.member().reachable() == reachable, DEADLINE).data();
    }
}
