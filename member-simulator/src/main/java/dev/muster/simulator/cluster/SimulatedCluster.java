package dev.muster.simulator.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import dev.muster.simulator.fault.ApiProxy;
import dev.muster.simulator.fault.ClusterFaults;
import dev.muster.simulator.kubelet.KubeletController;
import dev.muster.simulator.scheduling.SchedulerController;
import dev.muster.simulator.spec.ClusterSpec;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.simulator.spec.LoadSpec;
import dev.muster.simulator.spec.NodePoolSpec;
import dev.muster.simulator.time.SimulatedTime;
import dev.muster.simulator.training.TrainingOperator;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
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

    /** The namespace of the pods a spec's pre-existing load runs as. */
    public static final String LOAD_NAMESPACE = "simulated-load";

    private final ClusterSpec spec;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final Path kubeconfig;
    private ApiProxy proxy;
    private SchedulerController scheduler;
    private KubeletController kubelets;
    private TrainingOperator operator;
    private ClusterFaults faults;

    private SimulatedCluster(ClusterSpec spec, KubernetesMockServer server, KubernetesClient client, Path kubeconfig) {
        this.spec = spec;
        this.server = server;
        this.client = client;
        this.kubeconfig = kubeconfig;
    }

    /** The mock API server itself, for tests of what it keeps. */
    KubernetesMockServer server() {
        return server;
    }

    /** Starts the cluster at real-time speed; see {@link #start(ClusterSpec, Path, SimulatedTime)}. */
    public static SimulatedCluster start(ClusterSpec spec, Path kubeconfigFolder) throws IOException {
        return start(spec, kubeconfigFolder, SimulatedTime.REAL);
    }

    /**
     * Starts the cluster's API server, creates its nodes and their pre-existing load, starts its controllers,
     * and writes {@code <name>.kubeconfig} into the folder.
     */
    public static SimulatedCluster start(ClusterSpec spec, Path kubeconfigFolder, SimulatedTime time) throws IOException {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        MemberApiDispatcher dispatcher = new MemberApiDispatcher(responses, spec.supportsReservation() ? Set.of() : Set.of(Reservation.GROUP));
        KubernetesMockServer server = MockApiServers.create("member", responses, dispatcher, version(spec.kubernetesVersion()));
        server.init(InetAddress.getLoopbackAddress(), 0);
        KubernetesClient client = server.createClient();
        SimulatedCluster cluster = new SimulatedCluster(spec, server, client,
                Files.createDirectories(kubeconfigFolder).resolve(spec.name() + ".kubeconfig"));
        try {
            cluster.registerCustomResources();
            cluster.describeMember();
            cluster.createNodes();
            cluster.createLoad();
            cluster.proxy = ApiProxy.start(spec.name(), new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort()), 0);
            cluster.scheduler = SchedulerController.start(client, spec.name(), spec.supportsReservation(), time);
            cluster.kubelets = KubeletController.start(client, spec.name(), START_DELAY, time);
            cluster.operator = TrainingOperator.start(client, spec.name());
            cluster.faults = new ClusterFaults(spec.name(), client, cluster.scheduler, cluster.kubelets, cluster.proxy, dispatcher.listFaults(), time, cluster.operator);
            Files.writeString(cluster.kubeconfig, cluster.kubeconfigText());
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * The job's programs finish: every running pod of the job exits 0 now, so the job succeeds as the training
     * operator judges it (pods already ended stay as they are).
     *
     * @return the pods that finished; none when the job has no running pod here
     */
    public List<String> completeJob(String namespace, String job) {
        List<String> finished = new ArrayList<>();
        for (Pod pod : client.pods().inNamespace(namespace).withLabel(TrainingOperator.JOB_NAME, job).list().getItems()) {
            if (kubelets.exit(namespace, pod.getMetadata().getName(), 0)) {
                finished.add(pod.getMetadata().getName());
            }
        }
        return finished;
    }

    /** The faults this cluster can be made to suffer, and heal from. */
    public ClusterFaults faults() {
        return faults;
    }

    public String name() {
        return spec.name();
    }

    public ClusterSpec spec() {
        return spec;
    }

    /** The address clients reach the API server at, e.g. {@code http://127.0.0.1:40123}; network faults apply to it. */
    public String url() {
        return "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + proxy.port();
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
        if (faults != null) {
            faults.close();
        } else if (proxy != null) {
            proxy.close();
        }
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

    /**
     * The CRDs the member serves, each with its status subresource: PyTorchJob (Kubeflow's training operator),
     * and koordinator's Reservation where the cluster supports reservation; elsewhere reservations are not found,
     * as on a real cluster without them.
     */
    private void registerCustomResources() {
        CustomResources.register(client, PyTorchJob.class);
        if (spec.supportsReservation()) {
            CustomResources.register(client, Reservation.class);
        }
    }

    /**
     * The spec's load pods, Running on their nodes as pods that ran before the simulation did.
     */
    private void createLoad() throws IOException {
        List<Pod> load = new ArrayList<>();
        String now = java.time.Instant.now().toString();
        for (NodePoolSpec pool : spec.nodePools()) {
            int node = 0;
            for (LoadSpec entry : pool.load()) {
                Map<String, Quantity> requests = ResourceList.parse(entry.requests()).toQuantities();
                for (int i = 0; i < entry.nodes(); i++, node++) {
                    for (int pod = 0; pod < entry.pods(); pod++) {
                        load.add(loadPod(nodeName(pool, node), pod, pool, requests, now));
                    }
                }
            }
        }
        if (load.isEmpty()) {
            return;
        }
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(LOAD_NAMESPACE).endMetadata().build()).create();
        createAll(load, "load pods");
    }

    /** Creates many objects a few at a time in parallel: a large cluster has thousands. */
    private void createAll(List<? extends HasMetadata> objects, String what) throws IOException {
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> created = new ArrayList<>();
            objects.forEach(object -> created.add(creators.submit(() -> client.resource(object).create())));
            for (Future<?> object : created) {
                object.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating the " + what + " of cluster " + spec.name(), e);
        } catch (ExecutionException e) {
            throw new IOException("creating the " + what + " of cluster " + spec.name() + " failed", e.getCause());
        } finally {
            creators.shutdownNow();
        }
    }

    private static Pod loadPod(String nodeName, int index, NodePoolSpec pool, Map<String, Quantity> requests, String now) {
        return new PodBuilder()
                .withNewMetadata().withName("load-" + nodeName + "-" + index).withNamespace(LOAD_NAMESPACE)
                .addToLabels(NODE_POOL_LABEL, pool.name()).endMetadata()
                .withNewSpec().withNodeName(nodeName).withRestartPolicy("Always")
                .addNewContainer().withName("load").withImage("simulated/load")
                .withNewResources().withRequests(requests).endResources().endContainer()
                .endSpec()
                .withNewStatus().withPhase("Running").withStartTime(now)
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(now).endCondition()
                .endStatus()
                .build();
    }

    private String nodeName(NodePoolSpec pool, int index) {
        return spec.name() + "-" + pool.name() + "-" + index;
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

    private void createNodes() throws IOException {
        List<Node> nodes = new ArrayList<>();
        for (NodePoolSpec pool : spec.nodePools()) {
            ResourceList allocatable = FleetSpec.allocatable(pool);
            for (int index = 0; index < pool.count(); index++) {
                nodes.add(node(nodeName(pool, index), pool, allocatable, index));
            }
        }
        createAll(nodes, "nodes");
    }

    private Node node(String name, NodePoolSpec pool, ResourceList allocatable, int index) {
        Map<String, String> labels = new LinkedHashMap<>(pool.labels());
        if (pool.topology() != null) {
            labels.putAll(pool.topology().labels(pool.name(), index));
        }
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
        return Kubeconfigs.text(spec.name(), url());
    }

    static VersionInfo version(String kubernetesVersion) {
        String[] parts = (kubernetesVersion == null ? "1.30.0" : kubernetesVersion).split("\\.");
        return new VersionInfo.Builder()
                .withMajor(parts[0])
                .withMinor(parts.length > 1 ? parts[1] : "0")
                .withGitVersion("v" + kubernetesVersion)
                .build();
    }

}
