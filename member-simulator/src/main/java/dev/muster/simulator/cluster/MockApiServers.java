package dev.muster.simulator.cluster;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * fabric8's mock API server as every simulated cluster and the fleet API run it. Two of its habits suit tests
 * but not a server that runs for hours under load, so they are turned off here: it logs every request at INFO
 * through java.util.logging (tens of lines per simulated job), and it keeps every request it answered, body
 * included, for tests that call {@code takeRequest()} (so a long {@code ./muster up} or a benchmark run grew
 * without bound). What each client did is kept instead, in RBAC's terms ({@link AccessLog}).
 */
final class MockApiServers {

    /** Held so the level set on it is not lost when the logger is collected. */
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private MockApiServers() {
    }

    /** A server (not started yet) that answers with the dispatcher; {@code responses} are its recorded expectations. */
    static <D extends Dispatcher & Resetable & CustomResourceAware> KubernetesMockServer create(String kind, Map<ServerRequest, Queue<ServerResponse>> responses,
                                                                                                D dispatcher, VersionInfo version) {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        Forgetting forgetting = new Forgetting(kind, dispatcher);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, forgetting, false, version);
        forgetting.server = server;
        return server;
    }

    /** The dispatcher, then forgets the requests recorded so far, the one just answered included. */
    private static final class Forgetting extends Dispatcher implements Resetable, CustomResourceAware {

        /** {@code fleet} or {@code member}, for the {@link AccessLog}. */
        private final String kind;
        private final Dispatcher dispatcher;
        private final Resetable resetable;
        private final CustomResourceAware customResources;
        private volatile KubernetesMockServer server;

        <D extends Dispatcher & Resetable & CustomResourceAware> Forgetting(String kind, D dispatcher) {
            this.kind = kind;
            this.dispatcher = dispatcher;
            this.resetable = dispatcher;
            this.customResources = dispatcher;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            AccessLog.record(kind, request.getHeader("User-Agent"), request.getMethod(), request.getPath());
            try {
                return dispatcher.dispatch(request);
            } finally {
                forget();
            }
        }

        private void forget() {
            KubernetesMockServer answered = server;
            if (answered == null) {
                return;
            }
            try {
                while (answered.takeRequest(0, TimeUnit.NANOSECONDS) != null) {
                    // Dropped: only their count and order would have been of use, to a test.
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void shutdown() {
            dispatcher.shutdown();
        }

        @Override
        public void reset() {
            resetable.reset();
        }

        @Override
        public void expectCustomResource(CustomResourceDefinitionContext definition) {
            customResources.expectCustomResource(definition);
        }
    }
}
