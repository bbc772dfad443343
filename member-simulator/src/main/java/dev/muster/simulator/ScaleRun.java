package dev.muster.simulator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.scheduling.GangScheduler;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.simulator.training.TrainingOperator;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Measures one large simulated cluster and prints the figures: how long 1,000 nodes and 10,000 running pods
 * take to start, how fast the API answers with that much in it, and how long a 17-pod gang takes from
 * create to all pods Running. Run it with
 * {@code java -cp member-simulator/target/member-simulator.jar dev.muster.simulator.ScaleRun [nodes] [podsPerNode]}.
 */
public final class ScaleRun {

    private ScaleRun() {
    }

    public static void main(String[] args) throws Exception {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        // Simulated time runs 1000x so the kubelets' start delay does not hide the scheduler and API figures.
        FleetSpec spec = FleetSpec.parse("""
                timeSpeed: 1000
                clusters:
                - name: big
                  kubernetesVersion: 1.30.2
                  schedulerVersion: 6.8.1
                  nodePools:
                  - name: gpu
                    count: %d
                    allocatable: {cpu: "96", memory: 768Gi, nvidia.com/gpu: "8", pods: "110"}
                    load:
                    - {nodes: %d, podsPerNode: %d, requests: {cpu: "4", memory: 16Gi}}
                """.formatted(nodes, nodes, podsPerNode), "scale");
        Path folder = Files.createTempDirectory("muster-scale");
        long start = System.nanoTime();
        try (SimulatedCluster cluster = SimulatedCluster.start(spec.clusters().get(0), folder, spec.time());
             KubernetesClient client = cluster.connect()) {
            double startSeconds = seconds(start);
            long listStart = System.nanoTime();
            int podCount = client.pods().inAnyNamespace().list().getItems().size();
            double listPodsMillis = millis(listStart);
            long nodeListStart = System.nanoTime();
            int nodeCount = client.nodes().list().getItems().size();
            double listNodesMillis = millis(nodeListStart);
            List<Double> gets = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                long getStart = System.nanoTime();
                client.pods().inNamespace(SimulatedCluster.LOAD_NAMESPACE).withName("load-big-gpu-" + (i * 7 % nodes) + "-0").get();
                gets.add(millis(getStart));
            }
            gets.sort(Double::compare);

            PyTorchJob gang = Manifests.read("""
                    apiVersion: kubeflow.org/v1
                    kind: PyTorchJob
                    metadata: {name: gang17, namespace: default}
                    spec:
                      pytorchReplicaSpecs:
                        Master:
                          replicas: 1
                          template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {nvidia.com/gpu: "8"}}}]}}
                        Worker:
                          replicas: 16
                          template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {nvidia.com/gpu: "8"}}}]}}
                    """, PyTorchJob.class);
            gang.getMetadata().setLabels(Map.of(GangScheduler.POD_GROUP, "gang17", GangScheduler.MIN_AVAILABLE, "17"));
            // Told by a watch when all 17 run, rather than polling.
            var allRunning = client.pods().inNamespace("default").withLabel(TrainingOperator.JOB_NAME, "gang17")
                    .informOnCondition(pods -> pods.stream().filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()))
                            .count() == 17);
            long gangStart = System.nanoTime();
            client.resources(PyTorchJob.class).inNamespace("default").resource(gang).create();
            try {
                allRunning.get(120, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("the 17-pod gang did not run within 120 s", e);
            }
            double gangSeconds = seconds(gangStart);

            System.out.printf("simulated cluster: %d nodes, %d pods%n", nodeCount, podCount);
            System.out.printf("  start (API server, nodes, load pods, controllers): %.1f s%n", startSeconds);
            System.out.printf("  list all pods: %.0f ms; list all nodes: %.0f ms%n", listPodsMillis, listNodesMillis);
            System.out.printf("  get one pod: median %.1f ms, p99 %.1f ms (200 gets)%n", gets.get(100), gets.get(197));
            System.out.printf("  17-pod gang from create to all Running: %.1f s%n", gangSeconds);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double millis(long since) {
        return (System.nanoTime() - since) / 1e6;
    }
}
