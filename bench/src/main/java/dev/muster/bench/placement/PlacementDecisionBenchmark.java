package dev.muster.bench.placement;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.muster.gangfit.Workload;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.json.Manifests;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/**
 * One placement decision: the best member cluster for a gang (fit node by node, and score), as placement
 * makes it for each admitted job. Fleets of {@code clusters x nodes} from the openb node shapes, partly
 * filled, in racks of 16 nodes and blocks of 4 racks; gangs of one CPU master and GPU workers, asking for no topology,
 * for one rack, or preferring one. Sampled, so JMH prints the median and p99 per decision.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class PlacementDecisionBenchmark {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    /** Member clusters x nodes per cluster. */
    @Param({"10x100", "100x1000"})
    public String fleet;

    /** Pods in the gang: one master and the rest workers. */
    @Param({"3", "17", "65"})
    public int gang;

    /** The node shapes: the openb GPU node list of the Alibaba GPU trace. */
    @Param("../shared/traces/alibaba-clusterdata/cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv")
    public String nodeShapes;

    /** What the gang asks of the topology: {@code none}, {@code required-rack} or {@code preferred-rack}. */
    @Param({"none", "required-rack", "preferred-rack"})
    public String topology;

    /**
     * How nodes and clusters are scored: {@code best-fit}, or {@code fragmentation} against a workload of the shapes
     * the benchmark's gangs and the openb trace's GPU pods have (1-GPU workers mostly, some of 2, 4 and 8 GPUs).
     */
    @Param("best-fit")
    public String scoring;

    private List<ClusterInventory> clusters;
    private PyTorchJob job;
    private Workload workload = Workload.NONE;

    @Setup(Level.Trial)
    public void buildFleet() {
        String[] size = fleet.split("x");
        clusters = TraceFleet.build(Integer.parseInt(size[0]), Integer.parseInt(size[1]), TraceFleet.shapes(Path.of(nodeShapes)), 2026);
        // Each cluster's node index is built when its inventory changes, not per decision.
        clusters.forEach(ClusterInventory::index);
        job = job(gang - 1);
        if (!"none".equals(topology)) {
            String annotation = topology.startsWith("required") ? TopologyRequest.REQUIRED : TopologyRequest.PREFERRED;
            job.getSpec().pytorchReplicaSpecs().values().forEach(replica -> replica.template().setMetadata(new ObjectMetaBuilder()
                    .addToAnnotations(annotation, TopologyLevels.RACK).build()));
        }
        if ("fragmentation".equals(scoring)) {
            workload = Workload.of(Map.of(shape(8, 32, 1), 70L, shape(16, 64, 2), 10L, shape(32, 128, 4), 10L, shape(64, 256, 8), 10L));
        }
        // A topology decision reads each member's racks as indexed once after a change, like the node index.
        clusters.forEach(cluster -> cluster.domains(TopologyLevels.RACK));
    }

    /** The decision placement makes: the best cluster, packing only clusters that could beat the best found. */
    @Benchmark
    public GangPlanner.Options decide() {
        return GangPlanner.choose(job, null, clusters, Map.of(), NOW, cluster -> FitMode.NODE, TopologyLevels.DEFAULT, workload);
    }

    /** For comparison: every cluster packed and ranked, which is what the bound in {@link #decide()} avoids. */
    @Benchmark
    public GangPlanner.Options rankEveryCluster() {
        return GangPlanner.plan(job, null, clusters, Map.of(), NOW, cluster -> FitMode.NODE, TopologyLevels.DEFAULT, workload);
    }

    private static ResourceList shape(int cpu, int memoryGi, int gpus) {
        return ResourceList.parse(Map.of("cpu", String.valueOf(cpu), "memory", memoryGi + "Gi", "nvidia.com/gpu", String.valueOf(gpus), "pods", "1"));
    }

    /** One CPU master and {@code workers} workers of one GPU, 8 CPUs and 32 GiB each. */
    static PyTorchJob job(int workers) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: bench, namespace: default, uid: bench}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {requests: {cpu: "4", memory: 16Gi}}}]}}
                    Worker:
                      replicas: %d
                      template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {requests: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}]}}
                """.formatted(workers), PyTorchJob.class);
    }
}
