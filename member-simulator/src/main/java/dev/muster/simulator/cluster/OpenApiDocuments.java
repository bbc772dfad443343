package dev.muster.simulator.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * The OpenAPI v3 documents of the fleet API server ({@code /openapi/v3} and one per group-version): what
 * {@code kubectl apply} reads to learn that the server validates fields itself ({@code fieldValidation} on every write),
 * and what {@code kubectl explain} reads: each custom resource's schema, from its CRD, under the name and
 * {@code x-kubernetes-group-version-kind} a real API server gives it ({@code org.kubeflow.v1.PyTorchJob}).
 */
final class OpenApiDocuments {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String ROOT = "/openapi/v3";

    private final Map<String, List<ApiDiscovery.Resource>> resources;
    private final Map<String, CustomResourceDefinition> definitions = new java.util.HashMap<>();

    OpenApiDocuments(ApiDiscovery discovery, List<CustomResourceDefinition> crds) {
        this.resources = discovery.resources();
        crds.forEach(crd -> definitions.put(crd.getSpec().getGroup() + "/" + crd.getSpec().getVersions().get(0).getName() + "/"
                + crd.getSpec().getNames().getKind(), crd));
    }

    /** The document for a path (query left out), or empty when the path is not one. */
    Optional<ObjectNode> document(String path) {
        if (path.equals(ROOT)) {
            ObjectNode index = JSON.objectNode();
            ObjectNode paths = index.putObject("paths");
            resources.keySet().forEach(groupVersion -> paths.putObject(prefix(groupVersion).substring(1))
                    .put("serverRelativeURL", ROOT + prefix(groupVersion) + "?hash=" + Integer.toHexString(groupVersion.hashCode())));
            return Optional.of(index);
        }
        return resources.keySet().stream().filter(groupVersion -> path.equals(ROOT + prefix(groupVersion))).findFirst()
                .map(groupVersion -> groupVersionDocument(groupVersion, resources.get(groupVersion)));
    }

    private ObjectNode groupVersionDocument(String groupVersion, List<ApiDiscovery.Resource> served) {
        ObjectNode document = JSON.objectNode().put("openapi", "3.0.0");
        document.putObject("info").put("title", "Muster fleet API").put("version", groupVersion);
        ObjectNode paths = document.putObject("paths");
        String group = groupVersion.contains("/") ? groupVersion.substring(0, groupVersion.indexOf('/')) : "";
        String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
        for (ApiDiscovery.Resource resource : served) {
            String collection = prefix(groupVersion) + (resource.namespaced() ? "/namespaces/{namespace}/" : "/") + resource.name();
            ObjectNode gvk = JSON.objectNode().put("group", group).put("version", version).put("kind", resource.kind());
            paths.putObject(collection).set("post", write(gvk, "post"));
            ObjectNode item = paths.putObject(collection + "/{name}");
            item.set("put", write(gvk, "put"));
            item.set("patch", write(gvk, "patch"));
        }
        ObjectNode schemas = document.putObject("components").putObject("schemas");
        for (ApiDiscovery.Resource resource : served) {
            CustomResourceDefinition crd = definitions.get(group + "/" + version + "/" + resource.kind());
            if (crd == null) {
                continue;
            }
            ObjectNode schema = MusterJson.json().valueToTree(crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema());
            schema.putArray("x-kubernetes-group-version-kind").addObject().put("group", group).put("version", version).put("kind", resource.kind());
            schemas.set(schemaName(group, version, resource.kind()), schema);
        }
        return document;
    }

    private static ObjectNode write(ObjectNode gvk, String action) {
        ObjectNode operation = JSON.objectNode().put("x-kubernetes-action", action);
        operation.set("x-kubernetes-group-version-kind", gvk);
        var parameters = operation.putArray("parameters");
        for (String parameter : List.of("dryRun", "fieldManager", "fieldValidation")) {
            parameters.addObject().put("name", parameter).put("in", "query").putObject("schema").put("type", "string");
        }
        operation.putObject("responses").putObject("200").put("description", "OK");
        return operation;
    }

    /** The name a real API server gives a custom resource's schema: the group reversed, the version, the kind. */
    private static String schemaName(String group, String version, String kind) {
        List<String> parts = new java.util.ArrayList<>(List.of(group.split("\\.")));
        java.util.Collections.reverse(parts);
        return String.join(".", parts) + "." + version + "." + kind;
    }

    private static String prefix(String groupVersion) {
        return groupVersion.equals("v1") ? "/api/v1" : "/apis/" + groupVersion;
    }
}
