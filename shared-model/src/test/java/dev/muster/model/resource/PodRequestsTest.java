package dev.muster.model.resource;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

class PodRequestsTest {

    private static Container container(String name, Map<String, String> requests, Map<String, String> limits) {
        return new ContainerBuilder().withName(name).withImage("img")
                .withNewResources().withRequests(quantities(requests)).withLimits(quantities(limits)).endResources()
                .build();
    }

    private static Map<String, Quantity> quantities(Map<String, String> texts) {
        java.util.Map<String, Quantity> map = new java.util.LinkedHashMap<>();
        texts.forEach((name, text) -> map.put(name, new Quantity(text)));
        return map;
    }

    private static ResourceList list(Map<String, String> texts) {
        return ResourceList.parse(texts);
    }

    @Test
    void aResourceWithOnlyALimitIsRequestedAtItsLimit() {
        Container gpuWorker = container("pytorch", Map.of("cpu", "4"), Map.of("cpu", "8", "nvidia.com/gpu", "8"));

        assertThat(PodRequests.of(gpuWorker)).isEqualTo(list(Map.of("cpu", "4", "nvidia.com/gpu", "8")));
    }

    @Test
    void regularContainersAddUp() {
        PodSpec pod = new PodSpecBuilder().withContainers(
                container("a", Map.of("cpu", "1", "memory", "1Gi"), Map.of()),
                container("b", Map.of("cpu", "500m"), Map.of("memory", "512Mi"))).build();

        assertThat(PodRequests.of(pod)).isEqualTo(list(Map.of("cpu", "1500m", "memory", "1536Mi")));
    }

    @Test
    void anInitContainerLargerThanTheRestSetsThePeak() {
        PodSpec pod = new PodSpecBuilder()
                .withInitContainers(container("init", Map.of("cpu", "4", "memory", "100Mi"), Map.of()))
                .withContainers(container("main", Map.of("cpu", "1", "memory", "1Gi"), Map.of()))
                .build();

        assertThat(PodRequests.of(pod)).isEqualTo(list(Map.of("cpu", "4", "memory", "1Gi")));
    }

    @Test
    void sidecarsRunBesideEverythingStartedAfterThem() {
        Container sidecar = container("proxy", Map.of("cpu", "1"), Map.of());
        sidecar.setRestartPolicy("Always");
        PodSpec pod = new PodSpecBuilder()
                .withInitContainers(sidecar, container("migrate", Map.of("cpu", "3"), Map.of()))
                .withContainers(container("main", Map.of("cpu", "2"), Map.of()))
                .build();

        // Peak during init: sidecar 1 + migrate 3 = 4; while running: main 2 + sidecar 1 = 3.
        assertThat(PodRequests.of(pod)).isEqualTo(list(Map.of("cpu", "4")));
    }

    @Test
    void podOverheadIsAddedOnTop() {
        PodSpec pod = new PodSpecBuilder()
                .withContainers(container("main", Map.of("cpu", "1"), Map.of()))
                .withOverhead(quantities(Map.of("cpu", "250m", "memory", "120Mi")))
                .build();

        assertThat(PodRequests.of(pod)).isEqualTo(list(Map.of("cpu", "1250m", "memory", "120Mi")));
    }

    @Test
    void aContainerWithoutResourcesRequestsNothing() {
        assertThat(PodRequests.of(new ContainerBuilder().withName("x").withImage("i").build())).isEqualTo(ResourceList.empty());
        assertThat(PodRequests.of((PodSpec) null)).isEqualTo(ResourceList.empty());
    }
}
