package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.job.PyTorchJob;
import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Topology-aware placement end to end over the default local fleet, with the real kubectl: a gang that requires one rack
 * ({@code examples/topology/rack-job.yaml}: three 4-GPU workers) lands inside one rack of gpu-a, although gpu-b has more
 * GPUs free in all (48 against 26), none of its racks 12; its pods carry the rack as a node affinity on the member.
 */
class TopologyIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String NAMESPACE = "racks";
    private static final String RACK = "cloud.provider.com/topology-rack";
    private static MusterStack stack;
    private static KubernetesClient fleet;
    private static Kubectl kubectl;
    @TempDir
    static Path manifests;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = SharedStack.get();
        fleet = stack.fleet.connect();
        kubectl = new Kubectl(stack.fleet.kubeconfig(), Path.of("..", "bin"));
        kubectl.run("create", "namespace", NAMESPACE).succeeded();
    }

    @AfterAll
    static void deleteTheJob() throws Exception {
        SharedStack.leave(stack, fleet, NAMESPACE, List.of("rack-train", "rack-train-2"));
    }

    @Test
    void aGangThatRequiresARackRunsInsideOneRackOfTheMemberThatHasOneNotOnTheMemberWithTheMostFreeGpus() throws Exception {
        kubectl.run("apply", "-f", Path.of("..", "examples", "topology", "rack-job.yaml").toString()).succeeded();

        KubernetesClient gpuA = stack.member("gpu-a").client();
        List<Pod> pods = await().atMost(DEADLINE).until(() -> gpuA.pods().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(pod -> pod.getSpec().getNodeName() != null).toList(), bound -> bound.size() == 4);
        Map<String, String> rackOf = gpuA.nodes().list().getItems().stream().collect(Collectors.toMap(node -> node.getMetadata().getName(),
                TopologyIT::rack));
        Set<String> racks = pods.stream().map(pod -> rackOf.get(pod.getSpec().getNodeName())).collect(Collectors.toSet());
        assertThat(racks).as("the racks of the gang's pods, logs: %s", stack.logs()).containsExactly("a100x8-r1");
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()).singleElement().satisfies(term -> assertThat(term.getMatchExpressions())
                .contains(new NodeSelectorRequirement(RACK, "In", List.of("a100x8-r1")))));
        assertThat(stack.member("gpu-b").client().pods().inNamespace(NAMESPACE).list().getItems()).isEmpty();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.resources(PyTorchJob.class).inNamespace(NAMESPACE).withName("rack-train")
                .get().getStatus().currentCondition()).hasValueSatisfying(condition -> assertThat(condition.type()).isEqualTo("Running")));

        // The same gang again: gpu-a's other rack has room for two of its workers, gpu-b's racks for two as well; it waits, saying so.
        Path again = Files.writeString(manifests.resolve("again.yaml"), Files.readString(Path.of("..", "examples", "topology", "rack-job.yaml"))
                .replace("name: rack-train", "name: rack-train-2"));
        kubectl.run("apply", "-f", again.toString()).succeeded();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(kubectl.run("get", "pytorchjob", "rack-train-2", "-n", NAMESPACE, "-o",
                "jsonpath={.status.conditions[-1:].message}").succeeded())
                .contains("gpu-a: no " + RACK + " domain of its 2 holds all 4 pods of the gang; the closest, a100x8-r0, has room for its 2 largest")
                .contains("gpu-b: no " + RACK + " domain of its 8 holds all 4 pods of the gang; the closest, a10x4-r4, has room for its 2 largest"));
    }

    private static String rack(Node node) {
        return node.getMetadata().getLabels().getOrDefault(RACK, "-");
    }
}
