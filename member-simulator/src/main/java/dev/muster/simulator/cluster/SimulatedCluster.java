package dev.muster.simulator.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceList;
import dev.muster.simulator.kubelet.KubeletController;
import dev.muster.simulator.scheduling.SchedulerController;
import dev.muster.simulator.training.TrainingOperator;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import dev.muster.simulator.spec.ClusterSpec;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.simulator.spec.NodePoolSpec;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

/**
 * One simulated member cluster: a Kubernetes API server (fabric8's mock server in CRUD mode) on its own
 * loopback port, holding the nodes its spec declares, with Kubeflow's training operator turning PyTorchJobs
 * into pods, a gang scheduler binding them and kubelets running them, reachable through the kubeconfig it
 * writes like any cluster. The cluster's facts a fleet learns from the vendor (scheduler version, reservation support, labels)
 * are in the ConfigMap {@code kube-system/muster-member}.
 */
public final class SimulatedCluster implements AutoCloseable {

    /** The ConfigMap, in {@code kube-system}, that describes the member to the fleet. */
    public static final String MEMBER_CONFIG_MAP = "muster-member";
    /** The label every simulated node carries with its pool's name. */
    public static final String NODE_POOL_LABEL = "muster.dev/node-pool";
    /** How long a simulated kubelet takes to start a bound pod unless the pod says otherwise. */
    public static final java.time.Duration START_DELAY = java.time.Duration.ofMillis(500);

    private final ClusterSpec spec;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final Path kubeconfig;
    private SchedulerController scheduler;
    private KubeletController kubelets;
    private TrainingOperator operator;

    private SimulatedCluster(ClusterSpec spec, KubernetesMockServer server, KubernetesClient client, Path kubeconfig) {
        this.spec = spec;
        this.server = server;
        this.client = client;
        this.kubeconfig = kubeconfig;
    }

    /** Starts the cluster's API server, creates its nodes, and writes {@code <name>.kubeconfig} into the folder. */
    public static SimulatedCluster start(ClusterSpec spec, Path kubeconfigFolder) throws IOException {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false, version(spec.kubernetesVersion()));
        server.init(InetAddress.getLoopbackAddress(), 0);
        KubernetesClient client = server.createClient();
        SimulatedCluster cluster = new SimulatedCluster(spec, server, client,
                Files.createDirectories(kubeconfigFolder).resolve(spec.name() + ".kubeconfig"));
        cluster.registerCustomResources();
        cluster.describeMember();
        cluster.createNodes();
        cluster.scheduler = SchedulerController.start(client, spec.name());
        cluster.kubelets = KubeletController.start(client, spec.name(), START_DELAY);
        cluster.operator = TrainingOperator.start(client, spec.name());
        Files.writeString(cluster.kubeconfig, cluster.kubeconfigText());
        return cluster;
    }

    public String name() {
        return spec.name();
    }

    public ClusterSpec spec() {
        return spec;
    }

    /** The API server's address, e.g. {@code http://127.0.0.1:40123}. */
    public String url() {
        return "http://" + server.getHostName() + ":" + server.getPort();
    }

    /** The kubeconfig file that reaches this cluster. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * A new client built only from the kubeconfig file this cluster wrote, as any tool or service reaches it;
     * the caller closes it.
     */
    public KubernetesClient connect() throws IOException {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    }

    /** The simulator's own client of this cluster, for its controllers. */
    public KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.close();
        }
        if (kubelets != null) {
            kubelets.close();
        }
        if (operator != null) {
            operator.close();
        }
        client.close();
        server.destroy();
    }

    /** The CRDs a member with Kubeflow's training operator serves: PyTorchJob, with its status subresource. */
    private void registerCustomResources() {
        CustomResourceDefinition pytorchJobs = CustomResourceDefinitionContext.v1CRDFromCustomResourceType(PyTorchJob.class)
                .editSpec().editFirstVersion()
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .endVersion().endSpec().build();
        client.apiextensions().v1().customResourceDefinitions().resource(pytorchJobs).create();
    }

    private void describeMember() {
        Map<String, String> data = new LinkedHashMap<>();
        data.put("kubernetesVersion", String.valueOf(spec.kubernetesVersion()));
        data.put("schedulerVersion", String.valueOf(spec.schedulerVersion()));
        data.put("reservation", String.valueOf(spec.supportsReservation()));
        client.configMaps().inNamespace("kube-system").resource(new ConfigMapBuilder()
                .withNewMetadata().withName(MEMBER_CONFIG_MAP).withNamespace("kube-system").withLabels(spec.labels()).endMetadata()
                .withData(data).build()).create();
    }

    private void createNodes() {
        for (NodePoolSpec pool : spec.nodePools()) {
            ResourceList allocatable = FleetSpec.allocatable(pool);
            for (int index = 0; index < pool.count(); index++) {
                client.nodes().resource(node(spec.name() + "-" + pool.name() + "-" + index, pool, allocatable)).create();
            }
        }
    }

    private Node node(String name, NodePoolSpec pool, ResourceList allocatable) {
        Map<String, String> labels = new LinkedHashMap<>(pool.labels());
        labels.put("kubernetes.io/hostname", name);
        labels.put(NODE_POOL_LABEL, pool.name());
        return new NodeBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withTaints(pool.taints()).endSpec()
                .withNewStatus()
                .withCapacity(allocatable.toQuantities())
                .withAllocatable(allocatable.toQuantities())
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("simulated kubelet is posting ready status").endCondition()
                .withNewNodeInfo().withKubeletVersion("v" + spec.kubernetesVersion()).endNodeInfo()
                .endStatus()
                .build();
    }

    private String kubeconfigText() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: muster
                current-context: %1$s
                users:
                - name: muster
                  user: {}
                """.formatted(spec.name(), url());
    }

    private static VersionInfo version(String kubernetesVersion) {
        String[] parts = (kubernetesVersion == null ? "1.30.0" : kubernetesVersion).split("\\.");
        return new VersionInfo.Builder()
                .withMajor(parts[0])
                .withMinor(parts.length > 1 ? parts[1] : "0")
                .withGitVersion("v" + kubernetesVersion)
                .build();
    }

}
