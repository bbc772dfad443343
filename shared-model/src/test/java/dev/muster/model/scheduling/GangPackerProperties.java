package dev.muster.model.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import dev.muster.model.resource.ResourceList;

class GangPackerProperties {

    @Property(tries = 500)
    void aPlacedGangNeverOvercommitsANodeAndEveryPodPassesTheNodesFilters(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 8) Integer> podGpus,
            @ForAll @Size(min = 1, max = 10) List<@IntRange(min = 0, max = 8) Integer> nodeGpus) {
        List<PodNeeds> gang = IntStream.range(0, podGpus.size()).mapToObj(i -> SchedulingFixtures.gpuPod("p-" + i, podGpus.get(i))).toList();
        List<NodeState> nodes = IntStream.range(0, nodeGpus.size()).mapToObj(i -> SchedulingFixtures.node("n-" + i, 16, nodeGpus.get(i))).toList();

        GangPlan plan = GangPacker.pack(gang, nodes);

        if (plan instanceof GangPlan.Placed placed) {
            assertThat(placed.nodes()).hasSize(gang.size());
            Map<String, ResourceList> used = new HashMap<>();
            gang.forEach(pod -> used.merge(placed.nodes().get(pod.name()), pod.request(), ResourceList::plus));
            Map<String, NodeState> byName = new HashMap<>();
            nodes.forEach(node -> byName.put(node.name(), node));
            gang.forEach(pod -> assertThat(NodeFit.filter(pod, byName.get(placed.nodes().get(pod.name())))).isEmpty());
            for (NodeState node : nodes) {
                assertThat(used.getOrDefault(node.name(), ResourceList.empty()).fitsWithin(node.free()))
                        .as("node %s over-committed", node.name()).isTrue();
            }
        } else {
            assertThat(((GangPlan.Unplaceable) plan).reason()).isNotBlank();
        }
    }
}
