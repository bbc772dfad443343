package dev.muster.simulator.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The address a simulated cluster's API is reached at from outside: a TCP proxy on a fixed loopback port in
 * front of the API server. It is what makes network faults real to a client: while the cluster is
 * unreachable the port refuses connections and open ones (watches included) are cut, and while it is slow
 * every request waits before it is forwarded. The cluster's own controllers talk to the server directly and
 * carry on, as a real control plane does when only its network to the fleet fails.
 */
public final class ApiProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ApiProxy.class.getName());

    private final String cluster;
    private final InetSocketAddress target;
    private final int port;
    private final ExecutorService connections;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile Duration latency = Duration.ZERO;
    /** The start of a request whose answer cuts the network ({@link #cutAtTheAnswerTo}); null when none is armed. */
    private volatile String cutAtTheAnswerTo;

    private ApiProxy(String cluster, InetSocketAddress target, ServerSocket listener) {
        this.cluster = cluster;
        this.target = target;
        this.listener = listener;
        this.port = listener.getLocalPort();
        this.connections = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "api-proxy-" + cluster);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts forwarding a fresh loopback port (or {@code port}, when not 0) to the target. */
    public static ApiProxy start(String cluster, InetSocketAddress target, int port) throws IOException {
        ApiProxy proxy = new ApiProxy(cluster, target, listen(port));
        proxy.accept(proxy.listener);
        return proxy;
    }

    /** The loopback port clients use. */
    public int port() {
        return port;
    }

    /** Whether the API currently refuses connections. */
    public boolean isUnreachable() {
        return listener == null;
    }

    /** How long each request currently waits before it is forwarded. */
    public Duration latency() {
        return latency;
    }

    /** Refuse new connections and cut the open ones, as when the API server's network is down. */
    public synchronized void unreachable() {
        ServerSocket current = listener;
        if (current == null) {
            return;
        }
        listener = null;
        closeQuietly(current);
        open.forEach(ApiProxy::closeQuietly);
        open.clear();
        LOG.log(System.Logger.Level.INFO, cluster + ": API unreachable (connections refused)");
    }

    /**
     * The next request that starts with these bytes (e.g. {@code POST /apis/kubeflow.org/v1/namespaces/default/pytorchjobs})
     * reaches the API server, and as the server answers the network is cut, as by {@link #unreachable()}: the write is
     * made and its client never learns it. Armed for one request; null disarms it.
     */
    public void cutAtTheAnswerTo(String requestStart) {
        cutAtTheAnswerTo = requestStart;
        LOG.log(System.Logger.Level.INFO, cluster + (requestStart == null ? ": no answer cuts the network"
                : ": the network is cut as the answer to the next '" + requestStart + "' comes"));
    }

    /** Delay every request by this much; zero for none. */
    public void slow(Duration latency) {
        this.latency = latency;
        LOG.log(System.Logger.Level.INFO, cluster + ": API latency set to " + latency.toMillis() + " ms");
    }

    /** Accept connections again on the same port, with no added latency. */
    public synchronized void heal() throws IOException {
        latency = Duration.ZERO;
        if (listener == null) {
            listener = listen(port);
            accept(listener);
            LOG.log(System.Logger.Level.INFO, cluster + ": API reachable again");
        }
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket socket) {
        connections.execute(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    connections.execute(() -> forward(client));
                } catch (IOException e) {
                    // Closed: unreachable or shutting down.
                    return;
                }
            }
        });
    }

    private void forward(Socket client) {
        try (client; Socket server = new Socket(target.getAddress(), target.getPort())) {
            open.add(client);
            open.add(server);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            java.util.concurrent.atomic.AtomicBoolean cutAtAnswer = new java.util.concurrent.atomic.AtomicBoolean();
            connections.execute(() -> pump(server, client, false, cutAtAnswer));
            pump(client, server, true, cutAtAnswer);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, cluster + ": proxied connection ended: " + e.getMessage());
        } finally {
            open.remove(client);
        }
    }

    /**
     * Copies bytes one way until either side closes; requests (client to server) wait out the latency first. An answer
     * on a connection whose request armed {@code cutAtAnswer} is not passed on: the network is cut instead.
     */
    private void pump(Socket from, Socket to, boolean request, java.util.concurrent.atomic.AtomicBoolean cutAtAnswer) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                Duration wait = latency;
                if (request && !wait.isZero()) {
                    Thread.sleep(wait.toMillis());
                }
                String armed = cutAtTheAnswerTo;
                if (request && armed != null && startsWith(buffer, read, armed)) {
                    cutAtTheAnswerTo = null;
                    cutAtAnswer.set(true);
                }
                if (!request && cutAtAnswer.get()) {
                    unreachable();
                    return;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (SocketException e) {
            // Cut by a fault or by the other side.
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, cluster + ": proxy copy failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static boolean startsWith(byte[] buffer, int length, String prefix) {
        byte[] expected = prefix.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return length >= expected.length && java.util.Arrays.equals(buffer, 0, expected.length, expected, 0, expected.length);
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }

    @Override
    public synchronized void close() {
        if (listener != null) {
            closeQuietly(listener);
            listener = null;
        }
        open.forEach(ApiProxy::closeQuietly);
        connections.shutdownNow();
    }
}
