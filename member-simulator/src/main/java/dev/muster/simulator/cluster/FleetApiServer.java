package dev.muster.simulator.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

/**
 * The local fleet's API server: where users apply PyTorchJobs, PropagationPolicies and the ElasticQuotaTree,
 * and where Muster shows status, events and queues. A CRUD API server serving Muster's types with their status
 * subresource and what kubectl needs besides (see {@link KubectlApiDispatcher}), and no controllers: nothing
 * runs on the fleet itself. Clients reach it through a front that also streams watches over plain HTTP, as
 * {@code kubectl get -w} asks for them (see {@link HttpWatchFront}). It writes {@code fleet.kubeconfig}.
 */
public final class FleetApiServer implements AutoCloseable {

    public static final String NAME = "fleet";
    private static final List<String> DEFAULT_NAMESPACES = List.of("default", "kube-system", "kube-public");

    private final KubernetesMockServer server;
    private final HttpWatchFront front;
    private final Path kubeconfig;

    private FleetApiServer(KubernetesMockServer server, HttpWatchFront front, Path kubeconfig) {
        this.server = server;
        this.front = front;
        this.kubeconfig = kubeconfig;
    }

    /** Starts the server on a free loopback port and writes its kubeconfig into the folder. */
    public static FleetApiServer start(Path kubeconfigFolder) throws IOException {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer server = MockApiServers.create("fleet", responses,
                new KubectlApiDispatcher(new MemberApiDispatcher(responses, Set.of()), CustomResources.fleetDefinitions()), SimulatedCluster.version("1.30.2"));
        server.init(InetAddress.getLoopbackAddress(), 0);
        HttpWatchFront front;
        try {
            front = HttpWatchFront.start(InetAddress.getLoopbackAddress(), server.getPort(), new ResourceTables(CustomResources.fleetDefinitions()));
        } catch (RuntimeException e) {
            server.destroy();
            throw e;
        }
        FleetApiServer fleet = new FleetApiServer(server, front, Files.createDirectories(kubeconfigFolder).resolve(NAME + ".kubeconfig"));
        try (KubernetesClient client = server.createClient()) {
            CustomResources.registerFleet(client);
            // As on any cluster: kubectl get ns lists them, and objects of the default namespace need it to exist.
            for (String namespace : DEFAULT_NAMESPACES) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
            }
            FleetAdmission.BUILT_IN_PRIORITY_CLASSES.forEach((name, value) -> client.resource(new PriorityClassBuilder().withNewMetadata()
                    .withName(name).endMetadata().withValue(value).withDescription("Used for system critical pods that must not be moved from their"
                            + " current node.").build()).create());
            Files.writeString(fleet.kubeconfig, Kubeconfigs.text(NAME, fleet.url()));
        } catch (IOException | RuntimeException e) {
            fleet.close();
            throw e;
        }
        return fleet;
    }

    /** The address clients reach the API server at, e.g. {@code http://127.0.0.1:40123}. */
    public String url() {
        return "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + front.port();
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    /** A new client of the fleet, built from its kubeconfig as any tool builds one; the caller closes it. */
    public KubernetesClient connect() throws IOException {
        return new KubernetesClientBuilder().withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    }

    /** How many requests the server has answered so far: what tests of a client's cost count. */
    public int requestCount() {
        return server.getRequestCount();
    }

    @Override
    public void close() {
        front.close();
        server.destroy();
    }
}
