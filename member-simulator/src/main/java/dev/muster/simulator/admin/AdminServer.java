package dev.muster.simulator.admin;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.muster.model.json.MusterJson;
import dev.muster.model.time.GoDurations;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.fault.ClusterFaults;

/**
 * The simulator's HTTP admin API, for switching faults at run time (JSON in and out, loopback only):
 * <pre>
 * GET  /clusters                                      every cluster, its API address, kubeconfig and faults
 * POST /clusters/{cluster}/unreachable                the API refuses connections
 * POST /clusters/{cluster}/slow?latency=2s            every API request waits first
 * POST /clusters/{cluster}/nodes/{node}/not-ready     the node's kubelet stops reporting
 * POST /clusters/{cluster}/nodes/{node}/ready         ... and reports again
 * POST /clusters/{cluster}/pods/{ns}/{pod}/fail?exitCode=137   kill the pod's containers
 * POST /clusters/{cluster}/scheduler/stop             the member's scheduler stops deciding
 * POST /clusters/{cluster}/scheduler/start            ... and runs again
 * POST /clusters/{cluster}/reservations/stop          the scheduler confirms no reservation (it still binds pods)
 * POST /clusters/{cluster}/reservations/start         ... and confirms them again
 * POST /clusters/{cluster}/lists/{resource}/fail?count=3   the next lists of the resource fail with 503
 * POST /clusters/{cluster}/heal                       end every fault of the cluster
 * POST /jobs/{ns}/{job}/complete                      the job's programs finish: its running pods exit 0, wherever they run
 * </pre>
 * A request that names no such cluster, node or pod gets 404, a bad parameter 400, each with
 * {@code {"error": "..."}} saying what was wrong; nothing else changes.
 */
public final class AdminServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AdminServer.class.getName());

    /**
     * More admin resources, served by whoever runs the simulator beside other things (the local stack serves its services
     * here), under their own first path segment.
     */
    public interface Extension {

        /** The first path segment this extension answers, e.g. {@code services}. */
        String prefix();

        /**
         * The answer to a request under {@link #prefix()}: throw {@link NoSuchElementException} for 404 and
         * {@link IllegalArgumentException} for 400, as the simulator's own resources do.
         */
        Object route(String method, List<String> path) throws Exception;
    }

    private final SimulatedFleet fleet;
    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Extension> extensions;

    private AdminServer(SimulatedFleet fleet, HttpServer server, List<Extension> extensions) {
        this.fleet = fleet;
        this.server = server;
        this.extensions = List.copyOf(extensions);
        this.executor = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "simulator-admin");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Serves the fleet's admin API on the loopback port (0 for a fresh one). */
    public static AdminServer start(SimulatedFleet fleet, int port) throws IOException {
        return start(fleet, port, List.of());
    }

    /** Serves the fleet's admin API and these extensions on the loopback port (0 for a fresh one). */
    public static AdminServer start(SimulatedFleet fleet, int port, List<Extension> extensions) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        AdminServer admin = new AdminServer(fleet, http, extensions);
        http.setExecutor(admin.executor);
        http.createContext("/", admin::handle);
        http.start();
        return admin;
    }

    /** The API's base address, e.g. {@code http://127.0.0.1:38080}. */
    public URI url() {
        return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Object body;
            int status = 200;
            try {
                body = route(exchange.getRequestMethod(), exchange.getRequestURI());
            } catch (NoSuchElementException e) {
                status = 404;
                body = Map.of("error", e.getMessage());
            } catch (IllegalArgumentException e) {
                status = 400;
                body = Map.of("error", e.getMessage());
            } catch (MethodNotAllowed e) {
                status = 405;
                body = Map.of("error", e.getMessage());
            } catch (Exception e) {
                status = 500;
                body = Map.of("error", String.valueOf(e.getMessage()));
                LOG.log(System.Logger.Level.WARNING, "admin request " + exchange.getRequestURI() + " failed", e);
            }
            byte[] bytes = MusterJson.json().writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private Object route(String method, URI uri) throws Exception {
        String[] path = uri.getPath().replaceAll("^/+|/+$", "").split("/");
        for (Extension extension : extensions) {
            if (path[0].equals(extension.prefix())) {
                return extension.route(method, List.of(path).subList(1, path.length));
            }
        }
        Map<String, String> query = query(uri);
        if (path.length == 1 && "clusters".equals(path[0])) {
            requireMethod(method, "GET", uri);
            List<Object> clusters = new ArrayList<>();
            fleet.clusters().forEach(cluster -> clusters.add(describe(cluster)));
            return clusters;
        }
        if (path.length == 4 && "jobs".equals(path[0]) && "complete".equals(path[3])) {
            requireMethod(method, "POST", uri);
            return complete(path[1], path[2]);
        }
        if (path.length < 3 || !"clusters".equals(path[0])) {
            throw new NoSuchElementException("no such admin resource: " + uri.getPath());
        }
        requireMethod(method, "POST", uri);
        SimulatedCluster cluster = fleet.cluster(path[1]).orElseThrow(() -> new NoSuchElementException("no cluster named " + path[1]
                + "; the fleet has " + fleet.clusters().stream().map(SimulatedCluster::name).toList()));
        ClusterFaults faults = cluster.faults();
        String action = String.join("/", java.util.Arrays.copyOfRange(path, 2, path.length));
        if ("unreachable".equals(action)) {
            faults.unreachable();
        } else if ("slow".equals(action)) {
            String latency = query.get("latency");
            faults.slow(GoDurations.parse(latency).orElseThrow(() -> new IllegalArgumentException(
                    "latency must be a duration such as 2s or 500ms, got " + (latency == null ? "nothing" : "\"" + latency + "\""))));
        } else if ("scheduler/stop".equals(action)) {
            faults.stopScheduler();
        } else if ("scheduler/start".equals(action)) {
            faults.startScheduler();
        } else if ("reservations/stop".equals(action)) {
            faults.stopReservations();
        } else if ("reservations/start".equals(action)) {
            faults.startReservations();
        } else if (path.length == 5 && "lists".equals(path[2]) && "fail".equals(path[4])) {
            faults.failLists(path[3], count(query.getOrDefault("count", "1")));
        } else if ("heal".equals(action)) {
            faults.heal();
        } else if (path.length == 5 && "nodes".equals(path[2]) && "not-ready".equals(path[4])) {
            faults.nodeNotReady(path[3]);
        } else if (path.length == 5 && "nodes".equals(path[2]) && "ready".equals(path[4])) {
            faults.nodeReady(path[3]);
        } else if (path.length == 6 && "pods".equals(path[2]) && "fail".equals(path[5])) {
            faults.failPod(path[3], path[4], exitCode(query.getOrDefault("exitCode", "1")));
        } else {
            throw new NoSuchElementException("no such fault: " + action);
        }
        return describe(cluster);
    }

    private static int count(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("count must be a whole number, got \"" + text + "\"");
        }
    }

    private Map<String, Object> complete(String namespace, String job) {
        Map<String, Object> finished = new LinkedHashMap<>();
        for (SimulatedCluster cluster : fleet.clusters()) {
            List<String> pods = cluster.completeJob(namespace, job);
            if (!pods.isEmpty()) {
                finished.put(cluster.name(), pods);
                LOG.log(System.Logger.Level.INFO, cluster.name() + ": job " + namespace + "/" + job + " completes: " + pods + " exit 0");
            }
        }
        if (finished.isEmpty()) {
            throw new NoSuchElementException("no member runs a pod of job " + namespace + "/" + job);
        }
        return Map.of("job", namespace + "/" + job, "completed", finished);
    }

    private static Map<String, Object> describe(SimulatedCluster cluster) {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", cluster.name());
        description.put("server", cluster.url());
        description.put("kubeconfig", cluster.kubeconfig().toAbsolutePath().toString());
        description.put("reservation", cluster.spec().supportsReservation());
        description.put("faults", cluster.faults().active());
        return description;
    }

    private static int exitCode(String text) {
        try {
            int code = Integer.parseInt(text);
            if (code < 1 || code > 255) {
                throw new IllegalArgumentException("exitCode must be 1 to 255, got " + code);
            }
            return code;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("exitCode must be an integer, got \"" + text + "\"");
        }
    }

    private static void requireMethod(String method, String expected, URI uri) {
        if (!expected.equals(method)) {
            throw new MethodNotAllowed(uri.getPath() + " takes " + expected + ", not " + method);
        }
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> query = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int equals = pair.indexOf('=');
                String name = java.net.URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
                query.put(name, equals < 0 ? "" : java.net.URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    /** A request with the wrong HTTP method. */
    private static final class MethodNotAllowed extends RuntimeException {
        MethodNotAllowed(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
