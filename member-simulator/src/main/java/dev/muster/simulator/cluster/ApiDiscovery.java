package dev.muster.simulator.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * The API discovery documents of the fleet API server ({@code /api}, {@code /apis}, {@code /api/v1},
 * {@code /apis/<group>/<version>}): what kubectl reads before anything else to map a kind or a short name
 * such as {@code pytorchjob} to a resource path. Built from the core resources the fleet serves and from the
 * custom resource definitions.
 */
final class ApiDiscovery {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    private static final String EXTENSIONS = "apiextensions.k8s.io/v1";

    /** A resource as discovery lists it. */
    record Resource(String name, String singularName, String kind, boolean namespaced, List<String> shortNames) {
    }

    /** The core (v1) resources kubectl users touch on a fleet. */
    private static final List<Resource> CORE = List.of(
            new Resource("namespaces", "namespace", "Namespace", false, List.of("ns")),
            new Resource("events", "event", "Event", true, List.of("ev")),
            new Resource("pods", "pod", "Pod", true, List.of("po")),
            new Resource("configmaps", "configmap", "ConfigMap", true, List.of("cm")),
            new Resource("secrets", "secret", "Secret", true, List.of()),
            new Resource("nodes", "node", "Node", false, List.of("no")));

    /** Built-in groups users apply objects of beside their jobs. */
    private static final Map<String, List<Resource>> BUILT_IN = Map.of("scheduling.k8s.io/v1",
            List.of(new Resource("priorityclasses", "priorityclass", "PriorityClass", false, List.of("pc"))));

    private final List<CustomResourceDefinition> definitions;

    ApiDiscovery(List<CustomResourceDefinition> definitions) {
        this.definitions = List.copyOf(definitions);
    }

    /** The document for a discovery path (query left out), or empty when the path is not one. */
    Optional<ObjectNode> document(String path) {
        if (path.equals("/api")) {
            ObjectNode versions = JSON.objectNode().put("kind", "APIVersions");
            versions.putArray("versions").add("v1");
            versions.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0").put("serverAddress", "127.0.0.1");
            return Optional.of(versions);
        }
        if (path.equals("/apis")) {
            return Optional.of(groups());
        }
        if (path.equals("/api/v1")) {
            return Optional.of(resourceList("v1", CORE, false));
        }
        if (path.equals("/apis/" + EXTENSIONS)) {
            return Optional.of(resourceList(EXTENSIONS, resources().get(EXTENSIONS), false));
        }
        for (Map.Entry<String, List<Resource>> builtIn : BUILT_IN.entrySet()) {
            if (path.equals("/apis/" + builtIn.getKey())) {
                return Optional.of(resourceList(builtIn.getKey(), builtIn.getValue(), false));
            }
        }
        Map<String, List<Resource>> byGroupVersion = customResources();
        String groupVersion = path.startsWith("/apis/") ? path.substring("/apis/".length()) : "";
        return Optional.ofNullable(byGroupVersion.get(groupVersion)).map(resources -> resourceList(groupVersion, resources, true));
    }

    private ObjectNode groups() {
        ObjectNode list = JSON.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        List<String> groupVersions = new ArrayList<>(customResources().keySet());
        groupVersions.addAll(0, BUILT_IN.keySet());
        groupVersions.add(0, EXTENSIONS);
        for (String groupVersion : groupVersions) {
            String[] parts = groupVersion.split("/");
            ObjectNode group = groups.addObject().put("name", parts[0]);
            group.putArray("versions").addObject().put("groupVersion", groupVersion).put("version", parts[1]);
            group.putObject("preferredVersion").put("groupVersion", groupVersion).put("version", parts[1]);
        }
        return list;
    }

    /**
     * The kind of the objects a collection path lists ({@code /api/v1/namespaces/default/events} → {@code Event}),
     * or empty when the path names no collection.
     */
    Optional<String> kindListedAt(String path) {
        String[] segments = path.split("/");
        int at;
        String groupVersion;
        if (segments.length >= 4 && segments[1].equals("api")) {
            groupVersion = segments[2];
            at = 3;
        } else if (segments.length >= 5 && segments[1].equals("apis")) {
            groupVersion = segments[2] + "/" + segments[3];
            at = 4;
        } else {
            return Optional.empty();
        }
        if (segments[at].equals("namespaces") && segments.length == at + 3) {
            at += 2;
        }
        if (segments.length != at + 1) {
            return Optional.empty();
        }
        String plural = segments[at];
        return resources().getOrDefault(groupVersion, List.of()).stream().filter(resource -> resource.name().equals(plural))
                .map(Resource::kind).findFirst();
    }

    /** Every resource served, by group-version ({@code v1} for the core group). */
    Map<String, List<Resource>> resources() {
        Map<String, List<Resource>> all = new LinkedHashMap<>();
        all.put("v1", CORE);
        all.put(EXTENSIONS, List.of(new Resource("customresourcedefinitions", "customresourcedefinition", "CustomResourceDefinition",
                false, List.of("crd", "crds"))));
        all.putAll(BUILT_IN);
        all.putAll(customResources());
        return all;
    }

    private Map<String, List<Resource>> customResources() {
        Map<String, List<Resource>> byGroupVersion = new LinkedHashMap<>();
        for (CustomResourceDefinition definition : definitions) {
            var spec = definition.getSpec();
            var names = spec.getNames();
            String groupVersion = spec.getGroup() + "/" + spec.getVersions().get(0).getName();
            byGroupVersion.computeIfAbsent(groupVersion, key -> new ArrayList<>()).add(new Resource(names.getPlural(), names.getSingular(),
                    names.getKind(), "Namespaced".equals(spec.getScope()), names.getShortNames() == null ? List.of() : names.getShortNames()));
        }
        return byGroupVersion;
    }

    private static ObjectNode resourceList(String groupVersion, List<Resource> resources, boolean withStatus) {
        ObjectNode list = JSON.objectNode().put("kind", "APIResourceList").put("apiVersion", "v1").put("groupVersion", groupVersion);
        ArrayNode entries = list.putArray("resources");
        for (Resource resource : resources) {
            ObjectNode entry = entries.addObject().put("name", resource.name()).put("singularName", resource.singularName())
                    .put("namespaced", resource.namespaced()).put("kind", resource.kind());
            VERBS.forEach(entry.putArray("verbs")::add);
            if (!resource.shortNames().isEmpty()) {
                resource.shortNames().forEach(entry.putArray("shortNames")::add);
            }
            if (withStatus) {
                ObjectNode status = entries.addObject().put("name", resource.name() + "/status").put("singularName", "")
                        .put("namespaced", resource.namespaced()).put("kind", resource.kind());
                List.of("get", "patch", "update").forEach(status.putArray("verbs")::add);
            }
        }
        return list;
    }
}
