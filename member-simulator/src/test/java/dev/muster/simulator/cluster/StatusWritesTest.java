package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.PodResource;

/** A controller's status write takes one request from a current copy, and loses nothing written since a stale one. */
class StatusWritesTest {

    @Test
    void aCurrentCopyIsWrittenInOneRequest(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            PodResource pod = client.pods().inNamespace("team-a").withName("worker");
            Pod seen = client.pods().inNamespace("team-a").resource(pod("worker")).create();
            var server = fleet.cluster("api").orElseThrow().server();
            int before = server.getRequestCount();

            StatusWrites.write(client.pods().inNamespace("team-a"), seen, current -> withPhase(current, "Running"), client.getKubernetesSerialization());

            assertThat(server.getRequestCount() - before).as("requests the write took").isEqualTo(1);
            assertThat(pod.get().getStatus().getPhase()).isEqualTo("Running");
        }
    }

    @Test
    void aStaleCopyIsReadAgainAndWhatChangedSinceIsKept(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            PodResource pod = client.pods().inNamespace("team-a").withName("worker");
            Pod seen = client.pods().inNamespace("team-a").resource(pod("worker")).create();
            pod.editStatus(current -> {
                current.setStatus(new PodStatusBuilder(current.getStatus()).withMessage("written by someone else").build());
                return current;
            });

            StatusWrites.write(client.pods().inNamespace("team-a"), seen, current -> withPhase(current, "Running"), client.getKubernetesSerialization());

            Pod written = pod.get();
            assertThat(written.getStatus().getPhase()).isEqualTo("Running");
            assertThat(written.getStatus().getMessage()).as("the other writer's change").isEqualTo("written by someone else");
        }
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("team-a").endMetadata()
                // Bound already, so the member's scheduler leaves it be, and not Pending, so its kubelet does too.
                .withNewSpec().withNodeName("elsewhere").addNewContainer().withName("main").withImage("trainer").endContainer().endSpec()
                .withNewStatus().withPhase("Unknown").endStatus()
                .build();
    }

    private static Pod withPhase(Pod pod, String phase) {
        pod.setStatus(new PodStatusBuilder(pod.getStatus()).withPhase(phase).build());
        return pod;
    }
}
