package dev.muster.simulator.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * The fleet API server's address: forwards every request, WebSocket watches included, to the CRUD server behind
 * it, and serves what that server cannot: a watch asked for over plain HTTP ({@code kubectl get -w}), streamed as
 * one JSON watch event per line for as long as the client stays, each object rendered as a Table row when the
 * client asked for Tables. The stream is the CRUD server's own WebSocket watch, so both kinds of watcher see the
 * same events.
 */
final class HttpWatchFront implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HttpWatchFront.class.getName());
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TABLE_TYPE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static final Duration START = Duration.ofSeconds(20);
    private static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(60);
    /** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the WebSocket handshake makes again for each hop. */
    private static final Set<String> HOP_HEADERS = Set.of("connection", "keep-alive", "transfer-encoding", "upgrade", "te", "trailer",
            "proxy-connection", "host", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-accept");

    private final Vertx vertx;
    private final HttpClient client;
    private final WebSocketClient sockets;
    private final HttpServer server;
    private final String backendHost;
    private final int backendPort;
    private final ResourceTables tables;

    private HttpWatchFront(Vertx vertx, String backendHost, int backendPort, ResourceTables tables) {
        this.vertx = vertx;
        this.backendHost = backendHost;
        this.backendPort = backendPort;
        this.tables = tables;
        // Every request forwarded has an answer in time: a backend that does not answer one is a 504, not a hung client, and
        // hung requests no longer fill the pool that every other client of the fleet API waits on.
        this.client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions().setMaxPoolSize(64).setConnectTimeout(5_000));
        this.sockets = vertx.createWebSocketClient();
        this.server = vertx.createHttpServer(new HttpServerOptions().setHost(backendHost).setPort(0)).requestHandler(this::handle);
    }

    /** Listens on a fresh port of the address, in front of the server listening on {@code backendPort} there. */
    static HttpWatchFront start(InetAddress address, int backendPort, ResourceTables tables) {
        HttpWatchFront front = new HttpWatchFront(Vertx.vertx(), address.getHostAddress(), backendPort, tables);
        try {
            front.server.listen().toCompletionStage().toCompletableFuture().get(START.toSeconds(), TimeUnit.SECONDS);
            return front;
        } catch (ExecutionException | TimeoutException e) {
            front.close();
            throw new UncheckedIOException(new IOException("the fleet API server's front could not listen: " + e.getMessage(), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            front.close();
            throw new IllegalStateException("interrupted while starting the fleet API server's front", e);
        }
    }

    int port() {
        return server.actualPort();
    }

    private void handle(HttpServerRequest request) {
        // Nothing may be read before the backend is connected; the body is piped to it then.
        request.pause();
        String upgrade = request.getHeader(HttpHeaders.UPGRADE);
        if (upgrade != null && "websocket".equals(upgrade.toLowerCase(Locale.ROOT))) {
            relayWebSocket(request);
        } else if (isHttpWatch(request)) {
            streamWatch(request);
        } else {
            forward(request);
        }
    }

    private static boolean isHttpWatch(HttpServerRequest request) {
        String watch = request.getParam("watch");
        return "GET".equals(request.method().name()) && ("true".equals(watch) || "1".equals(watch));
    }

    private void forward(HttpServerRequest request) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        copyHeaders(request.headers(), headers);
        RequestOptions options = new RequestOptions().setMethod(request.method()).setHost(backendHost).setPort(backendPort).setURI(request.uri())
                .setHeaders(headers).setIdleTimeout(FORWARD_TIMEOUT.toMillis());
        client.request(options)
                .compose(backend -> backend.send(request))
                .onSuccess(backend -> {
                    HttpServerResponse response = request.response().setStatusCode(backend.statusCode());
                    copyHeaders(backend.headers(), response.headers());
                    if (backend.getHeader(HttpHeaders.CONTENT_LENGTH) == null) {
                        response.setChunked(true);
                    }
                    backend.pipeTo(response);
                })
                .onFailure(failure -> fail(request, failure));
    }

    private void relayWebSocket(HttpServerRequest request) {
        sockets.connect(webSocketTo(request)).onSuccess(backend -> request.toWebSocket().onSuccess(socket -> {
            backend.textMessageHandler(socket::writeTextMessage);
            backend.binaryMessageHandler(socket::writeBinaryMessage);
            socket.textMessageHandler(backend::writeTextMessage);
            socket.binaryMessageHandler(backend::writeBinaryMessage);
            backend.closeHandler(closed -> closeQuietly(socket::close));
            socket.closeHandler(closed -> closeQuietly(backend::close));
        }).onFailure(failure -> backend.close())).onFailure(failure -> fail(request, failure));
    }

    private void streamWatch(HttpServerRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        boolean table = accept != null && accept.contains("as=Table");
        String path = request.path();
        Optional<CustomResourceDefinition> definition = table ? tables.definitionFor(path) : Optional.empty();
        boolean eventTable = table && ResourceTables.isEventList(path);
        long since = resourceVersion(request.getParam("resourceVersion"));
        sockets.connect(webSocketTo(request)).onSuccess(backend -> {
            HttpServerResponse response = request.response().setStatusCode(200).setChunked(true)
                    .putHeader(HttpHeaders.CONTENT_TYPE, definition.isPresent() || eventTable ? TABLE_TYPE : "application/json");
            backend.textMessageHandler(text -> render(text, since, definition, eventTable).ifPresent(line -> response.write(line + "\n")));
            backend.closeHandler(closed -> closeQuietly(response::end));
            response.closeHandler(gone -> closeQuietly(backend::close));
            // kubectl waits for the headers before it shows anything; a quiet watch still answers at once.
            response.writeHead();
            LOG.log(System.Logger.Level.DEBUG, "streaming a watch of " + path + " over HTTP");
        }).onFailure(failure -> fail(request, failure));
    }

    /**
     * The watch event with its object as the client asked for it (as is, or as a Table of one row), or nothing for
     * an object the client has already seen: the CRUD server starts every watch by replaying what it stores, where
     * a real API server sends only what changed after the resource version the client listed at.
     */
    private Optional<String> render(String text, long since, Optional<CustomResourceDefinition> definition, boolean eventTable) {
        try {
            JsonNode event = MAPPER.readTree(text);
            JsonNode object = event.path("object");
            if (!(event instanceof ObjectNode watchEvent) || !object.isObject() || "Status".equals(object.path("kind").asText())) {
                return Optional.of(text);
            }
            if ("ADDED".equals(event.path("type").asText())
                    && resourceVersion(object.path("metadata").path("resourceVersion").asText(null)) <= since) {
                return Optional.empty();
            }
            if (definition.isEmpty() && !eventTable) {
                return Optional.of(text);
            }
            Instant now = Instant.now();
            if (definition.isPresent()) {
                watchEvent.set("object", tables.table(definition.get(), object, now));
            } else {
                ObjectNode list = MAPPER.createObjectNode();
                list.putArray("items").add(object);
                watchEvent.set("object", tables.events(list, now));
            }
            return Optional.of(watchEvent.toString());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "a watch event of the CRUD server is not JSON; passed on as it came: " + e.getMessage());
            return Optional.of(text);
        }
    }

    /** A resource version as a number; the CRUD server counts them up from 1. Absent or not a number: 0, before all. */
    private static long resourceVersion(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private WebSocketConnectOptions webSocketTo(HttpServerRequest request) {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(backendHost).setPort(backendPort).setURI(request.uri());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        copyHeaders(request.headers(), headers);
        headers.remove(HttpHeaders.ACCEPT);
        headers.remove("Sec-WebSocket-Protocol");
        headers.forEach(options::addHeader);
        String protocol = request.getHeader("Sec-WebSocket-Protocol");
        if (protocol != null) {
            for (String each : protocol.split(",")) {
                options.addSubProtocol(each.trim());
            }
        }
        return options;
    }

    private static void copyHeaders(MultiMap from, MultiMap to) {
        from.forEach((name, value) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                to.add(name, value);
            }
        });
    }

    private static void fail(HttpServerRequest request, Throwable failure) {
        if (failure instanceof UpgradeRejectedException refused && !request.response().headWritten()) {
            // The store's own answer to the watch, such as 410 Expired for a version it no longer has.
            request.response().setStatusCode(refused.getStatus()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(refused.getBody() == null ? ApiStatus.failureBody(refused.getStatus(), "Failure", "the watch was refused")
                            : refused.getBody().toString());
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "fleet API request " + request.method() + " " + request.uri() + " failed: " + failure.getMessage());
        HttpServerResponse response = request.response();
        if (!response.headWritten() && failure instanceof java.util.concurrent.TimeoutException) {
            response.setStatusCode(504).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(ApiStatus.failureBody(504, "Timeout", "the fleet API server's store did not answer within " + FORWARD_TIMEOUT.toSeconds() + "s"));
        } else if (!response.headWritten()) {
            response.setStatusCode(502).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(ApiStatus.failureBody(502, "BadGateway", "the fleet API server's store did not answer: " + failure.getMessage()));
        } else {
            closeQuietly(() -> response.close());
        }
    }

    /** Ends a stream or socket the other side may already have ended. */
    private static void closeQuietly(Runnable close) {
        try {
            close.run();
        } catch (IllegalStateException alreadyClosed) {
            // Both ends close each other; the second close finds nothing left to close.
        }
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(START.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "the fleet API server's front did not stop cleanly: " + e.getMessage());
        }
    }
}
