package dev.muster.bench.placement;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * A fleet built from a real node inventory: each node's shape (CPU, memory, GPUs, GPU model) drawn, seeded,
 * from the openb GPU node list, and each node partly filled by a running pod taking a random share of it
 * (a tenth of the nodes full, a tenth empty), as placement sees it from status sync's reports.
 */
public final class TraceFleet {

    /** One line of {@code openb_node_list_gpu_node.csv}: {@code sn,cpu_milli,memory_mib,gpu,model}. */
    public record NodeShape(long cpuMilli, long memoryMib, int gpu, String model) {
    }

    private TraceFleet() {
    }

    public static List<NodeShape> shapes(Path nodeList) {
        try {
            List<String> lines = Files.readAllLines(nodeList);
            List<NodeShape> shapes = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.split(",");
                shapes.add(new NodeShape(Long.parseLong(fields[1]), Long.parseLong(fields[2]), Integer.parseInt(fields[3]), fields[4]));
            }
            return shapes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node list " + nodeList.toAbsolutePath()
                    + " (run from the repository root, beside ../shared/traces, or pass -p nodeShapes=<file>)", e);
        }
    }

    /** Nodes per rack and racks per block of every member. */
    public static final int RACK_SIZE = 16;
    public static final int RACKS_PER_BLOCK = 4;

    public static List<ClusterInventory> build(int clusters, int nodesPerCluster, List<NodeShape> shapes, long seed) {
        Random random = new Random(seed);
        List<ClusterInventory> fleet = new ArrayList<>(clusters);
        for (int c = 0; c < clusters; c++) {
            String name = "member-" + c;
            ClusterInventory cluster = new ClusterInventory(name);
            cluster.observe(new MemberSnapshot(name, true, true, Map.of(), Instant.EPOCH));
            for (int n = 0; n < nodesPerCluster; n++) {
                NodeShape shape = shapes.get(random.nextInt(shapes.size()));
                String node = name + "-node-" + n;
                // Racks of 16 consecutive nodes in blocks of 4 racks: what topology-aware decisions search.
                cluster.observe(new NodeSnapshot(node, Map.of("gpu-model", shape.model(), TopologyLevels.RACK, "r" + n / RACK_SIZE,
                        TopologyLevels.BLOCK, "b" + n / (RACK_SIZE * RACKS_PER_BLOCK)), List.of(), ResourceList.parse(Map.of(
                        "cpu", shape.cpuMilli() + "m", "memory", shape.memoryMib() + "Mi", "nvidia.com/gpu", String.valueOf(shape.gpu()),
                        "pods", "110")), true, false));
                int roll = random.nextInt(10);
                double share = roll == 0 ? 0 : roll == 1 ? 1 : random.nextDouble();
                int gpus = (int) Math.round(shape.gpu() * share);
                long cpu = Math.round(shape.cpuMilli() * share);
                if (gpus > 0 || cpu > 0) {
                    cluster.observe(new PodSnapshot("load", node + "-load", node, ResourceList.parse(Map.of("cpu", cpu + "m",
                            "memory", Math.round(shape.memoryMib() * share) + "Mi", "nvidia.com/gpu", String.valueOf(gpus), "pods", "1")), false));
                }
            }
            fleet.add(cluster);
        }
        return fleet;
    }
}
