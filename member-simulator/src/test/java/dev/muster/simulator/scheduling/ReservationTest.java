package dev.muster.simulator.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.ReservationCondition;
import dev.muster.model.reservation.ReservationOwner;
import dev.muster.model.reservation.ReservationSpec;
import dev.muster.simulator.cluster.ClusterSession;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Koordinator reservations on a simulated member, observed only through its API server. */
class ReservationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private static final String ONE_NODE = """
            clusters:
            - name: reserving
              kubernetesVersion: 1.30.2
              schedulerVersion: 6.8.1
              nodePools:
              - {name: cpu, count: 1, allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
            - name: old
              kubernetesVersion: 1.27.3
              schedulerVersion: 6.7.0
              nodePools:
              - {name: cpu, count: 1, allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
            """;

    @TempDir
    Path kubeconfigs;

    private ClusterSession session;
    private KubernetesClient client;

    private KubernetesClient cluster(String name) throws Exception {
        return cluster(ONE_NODE, name);
    }

    private KubernetesClient cluster(String specYaml, String name) throws Exception {
        session = ClusterSession.open(specYaml, kubeconfigs, name);
        client = session.client();
        return client;
    }

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static PodTemplateSpec template(String cpu) {
        return new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("pytorch").withImage("pytorch")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer().endSpec().build();
    }

    private static Reservation reservation(String name, String cpu, String ttl, ReservationOwner owner) {
        Reservation reservation = new Reservation();
        reservation.setMetadata(new ObjectMetaBuilder().withName(name).build());
        reservation.setSpec(new ReservationSpec(template(cpu), List.of(owner), ttl));
        return reservation;
    }

    private static Pod pod(String name, String cpu) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").addToLabels("job", name).endMetadata()
                .withSpec(template(cpu).getSpec()).build();
    }

    private Reservation get(String name) {
        return client.resources(Reservation.class).withName(name).get();
    }

    private Pod getPod(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private static String scheduledMessage(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? null : pod.getStatus().getConditions().stream()
                .filter(condition -> "PodScheduled".equals(condition.getType())).map(c -> c.getMessage()).findFirst().orElse(null);
    }

    @Test
    void aReservationHoldsCapacityFromOthersAndIsUsedUpByItsOwner() throws Exception {
        cluster("reserving");
        client.resources(Reservation.class).resource(reservation("for-owner", "3", "10m", ReservationOwner.labels(Map.of("job", "owner")))).create();
        await().atMost(DEADLINE).until(() -> Reservation.AVAILABLE.equals(get("for-owner").phase()));
        assertThat(get("for-owner").getStatus().nodeName()).isEqualTo("reserving-cpu-0");
        assertThat(get("for-owner").getStatus().conditions()).extracting(ReservationCondition::type, ReservationCondition::status)
                .contains(org.assertj.core.groups.Tuple.tuple("Ready", "True"));

        // 3 of the node's 4 cpu are held: someone else's 2-cpu pod cannot have them.
        client.pods().inNamespace("default").resource(pod("other", "2")).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(scheduledMessage(getPod("other"))).contains("cpu"));
        assertThat(getPod("other").getSpec().getNodeName()).isNull();

        // The owner's 3-cpu pod gets the held capacity.
        client.pods().inNamespace("default").resource(pod("owner", "3")).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(getPod("owner").getSpec().getNodeName()).isEqualTo("reserving-cpu-0"));
        await().atMost(DEADLINE).until(() -> Reservation.SUCCEEDED.equals(get("for-owner").phase()));
        assertThat(get("for-owner").getStatus().currentOwners()).extracting(owner -> owner.getName()).containsExactly("owner");
        // The owner's pod and its reservation are not counted twice: the other pod still waits for 2 cpu of the 1 left.
        assertThat(getPod("other").getSpec().getNodeName()).isNull();
    }

    @Test
    void aReservationThatCannotBePlacedStaysPendingWithTheReason() throws Exception {
        cluster("reserving");
        client.resources(Reservation.class).resource(reservation("too-big", "6", "10m", ReservationOwner.pod("default", "big"))).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(get("too-big").getStatus()).isNotNull());
        Reservation reservation = get("too-big");
        assertThat(reservation.phase()).isEqualTo(Reservation.PENDING);
        assertThat(reservation.getStatus().conditions()).singleElement().satisfies(condition -> {
            assertThat(condition.type()).isEqualTo("Scheduled");
            assertThat(condition.reason()).isEqualTo("Unschedulable");
            assertThat(condition.message()).contains("6 cpu");
        });
    }

    @Test
    void anUnusedReservationExpiresAfterItsTtlAndFreesItsCapacity() throws Exception {
        cluster("reserving");
        client.resources(Reservation.class).resource(reservation("short", "3", "2s", ReservationOwner.pod("default", "never-comes"))).create();
        await().atMost(DEADLINE).until(() -> Reservation.AVAILABLE.equals(get("short").phase()));
        client.pods().inNamespace("default").resource(pod("waiting", "2")).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(scheduledMessage(getPod("waiting"))).isNotNull());

        await().atMost(DEADLINE).until(() -> Reservation.FAILED.equals(get("short").phase()));
        assertThat(get("short").getStatus().conditions()).anySatisfy(condition -> {
            assertThat(condition.type()).isEqualTo("Ready");
            assertThat(condition.reason()).isEqualTo("Expired");
            assertThat(condition.message()).contains("ttl of 2s");
        });
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(getPod("waiting").getSpec().getNodeName()).isEqualTo("reserving-cpu-0"));
    }

    @Test
    void aGangWithReservationsBindsOnTheReservedNodes() throws Exception {
        cluster("""
                clusters:
                - name: gangs
                  kubernetesVersion: 1.30.2
                  schedulerVersion: 6.8.1
                  nodePools:
                  - {name: cpu, count: 3, allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
                """, "gangs");
        for (int i = 0; i < 3; i++) {
            Reservation reservation = reservation("gang-" + i, "3", "10m", ReservationOwner.pod("default", "gang-" + i));
            reservation.getSpec().template().getSpec().setNodeName("gangs-cpu-" + (2 - i));
            client.resources(Reservation.class).resource(reservation).create();
        }
        await().atMost(DEADLINE).until(() -> client.resources(Reservation.class).list().getItems().stream()
                .allMatch(reservation -> Reservation.AVAILABLE.equals(reservation.phase())));
        for (int i = 0; i < 3; i++) {
            Pod pod = pod("gang-" + i, "3");
            pod.getMetadata().getLabels().put(GangScheduler.POD_GROUP, "gang");
            pod.getMetadata().getLabels().put(GangScheduler.MIN_AVAILABLE, "3");
            client.pods().inNamespace("default").resource(pod).create();
        }

        await().atMost(DEADLINE).untilAsserted(() -> {
            for (int i = 0; i < 3; i++) {
                assertThat(getPod("gang-" + i).getSpec().getNodeName()).isEqualTo("gangs-cpu-" + (2 - i));
            }
        });
    }

    @Test
    void aClusterWithoutReservationSupportDoesNotServeTheApi() throws Exception {
        cluster("old");
        assertThatThrownBy(() -> client.resources(Reservation.class)
                .resource(reservation("any", "1", "10m", ReservationOwner.pod("default", "x"))).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }
}
