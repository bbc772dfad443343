package dev.muster.simulator.cluster;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

/**
 * fabric8's CRUD dispatcher with an index from (resource, namespace, name) to the stored object. The stock
 * dispatcher finds an object by scanning everything it holds, so creating n objects costs n² matches: ten
 * thousand pods took half a minute. Every store change goes through {@link #processEvent}, which keeps the index
 * in step; a lookup that does not name one object falls back to the scan, and one that does still checks the
 * full attributes (API group, version) against each candidate. Watches are served by a {@link WatchFanOut},
 * which sends each change with the stored JSON as it is rather than parsing it again for every watch.
 */
final class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

    /** Objects by resource, namespace and name; more than one only when API groups share a resource name. */
    private final Map<String, Set<AttributeSet>> index = new ConcurrentHashMap<>();
    /** Names whose stored key could not be confirmed; found by scanning. */
    private final Set<String> unindexed = ConcurrentHashMap.newKeySet();
    /** Per resource, a resource version issued just after its latest deletion. */
    private final Map<String, Long> deletedBefore = new ConcurrentHashMap<>();
    /** The open watches; the stock dispatcher's own list stays empty, so each change is sent once, by this. */
    private final WatchFanOut watches = new WatchFanOut(map);

    /**
     * Stores, replaces or removes one object, as the stock dispatcher does, and keeps the index in step: the
     * stored key is computed the way the stock dispatcher computes it, and an object whose key cannot be
     * confirmed in the store makes lookups of its name fall back to the scan.
     */
    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes, GenericKubernetesResource resource,
                             String json) {
        String previousJson = oldAttributes == null ? null : map.get(oldAttributes);
        super.processEvent(path, pathAttributes, oldAttributes, resource, json);
        AttributeSet stored = null;
        if (json == null && oldAttributes != null) {
            String plural = value(oldAttributes, KubernetesAttributesExtractor.PLURAL);
            if (plural != null) {
                deletedBefore.merge(plural, requestResourceVersion(), Math::max);
            }
        }
        if (oldAttributes != null) {
            identity(oldAttributes).ifPresent(key -> index.computeIfPresent(key, (ignored, objects) -> {
                objects.remove(oldAttributes);
                return objects.isEmpty() ? null : objects;
            }));
        }
        if (json != null) {
            KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
            stored = resource != null ? extractor.extract(resource) : extractor.fromResource(json);
            if (!stored.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                stored = AttributeSet.merge(pathAttributes, stored);
            }
            Optional<String> key = identity(stored);
            if (key.isPresent() && map.get(stored) == json) {
                index.computeIfAbsent(key.get(), ignored -> ConcurrentHashMap.newKeySet()).add(stored);
            } else {
                identity(pathAttributes).ifPresent(unindexed::add);
            }
        }
        if (!Objects.equals(previousJson, json)) {
            watches.publish(oldAttributes, stored, json, previousJson);
        }
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
        Optional<String> key = identity(attributes);
        if (key.isEmpty() || unindexed.contains(key.get())) {
            return super.findResource(attributes);
        }
        for (AttributeSet stored : index.getOrDefault(key.get(), Set.of())) {
            String json = map.get(stored);
            if (json != null && stored.matches(attributes)) {
                return new AbstractMap.SimpleImmutableEntry<>(stored, json);
            }
        }
        return null;
    }

    /**
     * Answers a read of one named object from the index, as the stock dispatcher would answer it (the object, or
     * 404 with no body) but without matching every stored object against the path: every job placement writes
     * and every status it mirrors starts with such a read. Lists, watches and names the index cannot vouch for go
     * to the stock dispatcher.
     */
    @Override
    public MockResponse handleGet(String path) {
        int query = path.indexOf('?');
        if (query >= 0 && path.indexOf("watch=true", query) >= 0) {
            return super.handleGet(path);
        }
        AttributeSet attributes = attributeExtractor.fromPath(path);
        Optional<String> key = identity(attributes);
        if (key.isEmpty() || unindexed.contains(key.get())) {
            return super.handleGet(path);
        }
        Map.Entry<AttributeSet, String> found = findResource(attributes);
        return found == null ? new MockResponse().setResponseCode(404) : new MockResponse().setResponseCode(200).setBody(found.getValue());
    }

    /**
     * Refuses, as {@code 410 Expired}, a watch from a resource version older than a deletion of that resource.
     * The stock dispatcher starts every watch by sending what it stores, which covers what was added or changed
     * since the client's version, but it keeps no history, so a deletion in between would be lost for good: a
     * client that reconnects after a network cut would keep the deleted object forever. A real API server sends
     * the deletion, or 410 once its history is compacted; clients then list afresh, which shows them the deletion.
     */
    @Override
    public MockResponse handleWatch(String path) {
        OptionalLong since = watchedFrom(path);
        if (since.isPresent()) {
            String plural = value(attributeExtractor.fromPath(path), KubernetesAttributesExtractor.PLURAL);
            long deletion = plural == null ? 0 : deletedBefore.getOrDefault(plural, 0L);
            if (deletion > since.getAsLong()) {
                return expired("too old resource version: " + since.getAsLong() + " (" + deletion + ")");
            }
        }
        AttributeSet selected = attributeExtractor.fromPath(path);
        Optional<String> name;
        try {
            name = watchedName(path);
        } catch (IllegalArgumentException e) {
            return ApiStatus.failure(400, "BadRequest", e.getMessage());
        }
        if (name.isPresent()) {
            selected = selected.add(new Attribute(KubernetesAttributesExtractor.NAME, name.get()));
        }
        return new MockResponse().withWebSocketUpgrade(watches.open(selected));
    }

    /** The name a watch asks for in its field selector ({@code metadata.name=...}), as the stock dispatcher reads it. */
    private static Optional<String> watchedName(String path) {
        int query = path.indexOf('?');
        if (query < 0) {
            return Optional.empty();
        }
        return FieldSelector.inQuery(path.substring(query + 1)).stream()
                .flatMap(selector -> selector.requirements().stream())
                .filter(requirement -> requirement.equal() && requirement.field().equals("metadata.name") && !requirement.value().isEmpty())
                .map(FieldSelector.Requirement::value)
                .findFirst();
    }

    /** A watch that ends at once with an {@code ERROR} event carrying {@code 410 Expired}, as a real API server's does. */
    private static MockResponse expired(String message) {
        String event = "{\"type\":\"ERROR\",\"object\":" + ApiStatus.failureBody(410, "Expired", message) + "}";
        return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
            @Override
            public void onOpen(WebSocket socket, Response response) {
                socket.send(event);
                socket.close(1000, message);
            }
        });
    }

    /** The {@code resourceVersion} a watch asks to start from; empty for none or 0 (from now). */
    private static OptionalLong watchedFrom(String path) {
        int query = path.indexOf('?');
        if (query < 0) {
            return OptionalLong.empty();
        }
        for (String parameter : path.substring(query + 1).split("&")) {
            if (parameter.startsWith("resourceVersion=")) {
                try {
                    long version = Long.parseLong(parameter.substring("resourceVersion=".length()));
                    return version > 0 ? OptionalLong.of(version) : OptionalLong.empty();
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public void reset() {
        super.reset();
        index.clear();
        unindexed.clear();
        deletedBefore.clear();
    }

    /** resource/namespace/name when the attributes name exactly one object, else empty. */
    private static Optional<String> identity(AttributeSet attributes) {
        String plural = value(attributes, KubernetesAttributesExtractor.PLURAL);
        String name = value(attributes, KubernetesAttributesExtractor.NAME);
        if (plural == null || name == null) {
            return Optional.empty();
        }
        String namespace = value(attributes, KubernetesAttributesExtractor.NAMESPACE);
        return Optional.of(plural + "/" + (namespace == null ? "" : namespace) + "/" + name);
    }

    private static String value(AttributeSet attributes, String key) {
        Attribute attribute = attributes.getAttribute(key);
        return attribute == null || attribute.getValues().size() != 1 ? null : attribute.getValues().get(0).toString();
    }
}
