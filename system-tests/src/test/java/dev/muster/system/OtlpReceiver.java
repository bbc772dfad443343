package dev.muster.system;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;

/**
 * What an OpenTelemetry collector receives from the services, kept in memory: an OTLP/HTTP endpoint ({@code /v1/traces},
 * protobuf, as the services export by default) that the stack's services are pointed at.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One span as exported: its service, ids in hex, name and kind, and the job it is about (or null). */
    record ReceivedSpan(String service, String traceId, String spanId, String parentSpanId, String name, String kind, String jobUid) {
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext("/v1/traces", receiver::receive);
        server.start();
        return receiver;
    }

    /** The endpoint to give {@code quarkus.otel.exporter.otlp.endpoint}. */
    String endpoint() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    private void receive(HttpExchange exchange) throws IOException {
        try (exchange; InputStream body = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
            HexFormat hex = HexFormat.of();
            request.getResourceSpansList().forEach(resource -> {
                String service = attribute(resource.getResource().getAttributesList(), "service.name");
                resource.getScopeSpansList().forEach(scope -> scope.getSpansList().forEach(span -> spans.add(new ReceivedSpan(service,
                        hex.formatHex(span.getTraceId().toByteArray()), hex.formatHex(span.getSpanId().toByteArray()),
                        span.getParentSpanId().isEmpty() ? null : hex.formatHex(span.getParentSpanId().toByteArray()), span.getName(),
                        span.getKind().name(), attribute(span.getAttributesList(), "muster.job.uid")))));
            });
            byte[] response = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
            if (response.length > 0) {
                exchange.getResponseBody().write(response);
            }
        }
    }

    private static String attribute(List<KeyValue> attributes, String key) {
        return attributes.stream().filter(attribute -> attribute.getKey().equals(key)).map(attribute -> attribute.getValue().getStringValue())
                .findFirst().orElse(null);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
