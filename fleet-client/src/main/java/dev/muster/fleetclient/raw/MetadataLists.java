package dev.muster.fleetclient.raw;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;

/**
 * Every object of a kind (in all namespaces) by name, namespace and UID only: what a watch's audit compares the watch with.
 * A list of a member's pods is thousands of whole pods; bound into fabric8's model each minute, the audits were an
 * eighth of status sync's CPU under load. The list is asked for a page at a time and as metadata only (as {@code
 * kubectl get} asks); an API server that answers with whole objects, or all at once, is read the same way, everything
 * but each item's name, namespace and UID skipped unbound.
 */
public final class MetadataLists {

    /** Objects per page. */
    static final int PAGE = 500;
    /** Pages before a list is given up: 10 million objects, more than any API server holds of a kind. */
    static final int MAX_PAGES = 20_000;
    private static final String METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

    private MetadataLists() {
    }

    /** The objects of the kind, each with its name, namespace and UID alone. */
    public static List<HasMetadata> of(KubernetesClient client, ResourceDefinitionContext kind) {
        List<HasMetadata> objects = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            if (++pages > MAX_PAGES) {
                throw new KubernetesClientException("listing " + kind.getPlural() + " gave more than " + MAX_PAGES + " pages of " + PAGE
                        + "; given up");
            }
            String previous = next;
            String url = url(client, kind) + "?limit=" + PAGE + (next == null ? "" : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
            HttpRequest request = RawRequests.request(client, url).header("Accept", METADATA_ONLY).build();
            try {
                next = page(RawRequests.send(client, request), objects);
            } catch (IOException e) {
                throw RawRequests.unreadable(request, e);
            }
            if (next != null && next.equals(previous)) {
                // A server that answers each page with the same token would be asked for it for ever.
                throw new KubernetesClientException("listing " + kind.getPlural() + ": the server gave the same continue token twice; given up");
            }
        } while (next != null);
        return objects;
    }

    private static String url(KubernetesClient client, ResourceDefinitionContext kind) {
        return kind.getGroup() == null || kind.getGroup().isEmpty()
                ? RawRequests.url(client, "api", kind.getVersion(), kind.getPlural())
                : RawRequests.url(client, "apis", kind.getGroup(), kind.getVersion(), kind.getPlural());
    }

    /** Adds the page's objects; the token of the next page, or null when this was the last. */
    static String page(byte[] json, List<HasMetadata> objects) throws IOException {
        String next = null;
        try (JsonParser parser = MusterJson.json().createParser(json)) {
            parser.nextToken();
            JsonValues.expect(parser, JsonToken.START_OBJECT, "the list");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("items".equals(field) && value != JsonToken.VALUE_NULL) {
                    JsonValues.expect(parser, JsonToken.START_ARRAY, "items");
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        JsonValues.expect(parser, JsonToken.START_OBJECT, "an item");
                        objects.add(item(parser));
                    }
                } else if ("metadata".equals(field) && value != JsonToken.VALUE_NULL) {
                    JsonValues.expect(parser, JsonToken.START_OBJECT, "the list's metadata");
                    next = continueToken(parser);
                } else {
                    parser.skipChildren();
                }
            }
        }
        return next == null || next.isEmpty() ? null : next;
    }

    private static HasMetadata item(JsonParser parser) throws IOException {
        ObjectMeta metadata = new ObjectMeta();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if ("metadata".equals(field) && value != JsonToken.VALUE_NULL) {
                JsonValues.expect(parser, JsonToken.START_OBJECT, "an item's metadata");
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    if ("name".equals(name)) {
                        metadata.setName(JsonValues.text(parser, "metadata.name"));
                    } else if ("namespace".equals(name)) {
                        metadata.setNamespace(JsonValues.text(parser, "metadata.namespace"));
                    } else if ("uid".equals(name)) {
                        metadata.setUid(JsonValues.text(parser, "metadata.uid"));
                    } else {
                        parser.skipChildren();
                    }
                }
            } else {
                parser.skipChildren();
            }
        }
        if (metadata.getName() == null) {
            throw new IOException("a listed object has no name");
        }
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setMetadata(metadata);
        return object;
    }

    private static String continueToken(JsonParser parser) throws IOException {
        String next = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if ("continue".equals(name)) {
                next = JsonValues.text(parser, "metadata.continue");
            } else {
                parser.skipChildren();
            }
        }
        return next;
    }
}
