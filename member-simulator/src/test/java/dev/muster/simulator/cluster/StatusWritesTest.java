package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

    private SimulatedFleet fleet;
    private KubernetesClient client;
    private PodResource pod;
    /** The pod as it was created: a controller's copy of it. */
    private Pod seen;

    @BeforeEach
    void startAMemberWithAPod(@TempDir Path kubeconfigs) throws Exception {
        fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
        client = fleet.cluster("api").orElseThrow().connect();
        pod = client.pods().inNamespace("team-a").withName("worker");
        seen = client.pods().inNamespace("team-a").resource(new PodBuilder().withNewMetadata().withName("worker").withNamespace("team-a").endMetadata()
                // Bound already, so the member's scheduler leaves it be, and not Pending, so its kubelet does too.
                .withNewSpec().withNodeName("elsewhere").addNewContainer().withName("main").withImage("trainer").endContainer().endSpec()
                .withNewStatus().withPhase("Unknown").endStatus()
                .build()).create();
    }

    @AfterEach
    void stop() {
        client.close();
        fleet.close();
    }

    @Test
    void aCurrentCopyIsWrittenInOneRequest() {
        var server = fleet.cluster("api").orElseThrow().server();
        int before = server.getRequestCount();

        writeRunning();

        assertThat(server.getRequestCount() - before).as("requests the write took").isEqualTo(1);
        assertThat(pod.get().getStatus().getPhase()).isEqualTo("Running");
    }

    @Test
    void aStaleCopyIsReadAgainAndWhatChangedSinceIsKept() {
        pod.editStatus(current -> {
            current.setStatus(new PodStatusBuilder(current.getStatus()).withMessage("written by someone else").build());
            return current;
        });

        writeRunning();

        Pod written = pod.get();
        assertThat(written.getStatus().getPhase()).isEqualTo("Running");
        assertThat(written.getStatus().getMessage()).as("the other writer's change").isEqualTo("written by someone else");
    }

    private void writeRunning() {
        StatusWrites.write(client.pods().inNamespace("team-a"), seen, current -> {
            current.setStatus(new PodStatusBuilder(current.getStatus()).withPhase("Running").build());
            return current;
        }, client.getKubernetesSerialization());
    }
}
