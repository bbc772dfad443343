package dev.muster.simulator.cluster;

import java.util.Optional;

/**
 * What an API path names: {@code /api/v1/namespaces/default/pods/p}, {@code /apis/kubeflow.org/v1/namespaces/default/pytorchjobs},
 * {@code /api/v1/namespaces/kube-queue} (a namespace itself), {@code /apis/scheduling.k8s.io/v1/priorityclasses/high}.
 *
 * @param group       the API group, empty for the core group
 * @param namespace   null for a cluster-scoped resource or a list across namespaces
 * @param name        null for a collection
 * @param subresource e.g. {@code status}, or null
 */
record ResourcePath(String group, String version, String namespace, String resource, String name, String subresource) {

    /** What the path names, query left out; empty for a path that is no resource (discovery, OpenAPI). */
    static Optional<ResourcePath> parse(String path) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] segments = bare.split("/");
        int at;
        String group;
        String version;
        if (segments.length >= 4 && segments[1].equals("api")) {
            group = "";
            version = segments[2];
            at = 3;
        } else if (segments.length >= 5 && segments[1].equals("apis")) {
            group = segments[2];
            version = segments[3];
            at = 4;
        } else {
            return Optional.empty();
        }
        String namespace = null;
        int left = segments.length - at;
        // namespaces/<ns>/<resource>...: a namespaced resource; namespaces or namespaces/<name>: the namespaces themselves.
        if (segments[at].equals("namespaces") && left >= 3) {
            namespace = segments[at + 1];
            at += 2;
            left -= 2;
        }
        String resource = segments[at];
        String name = left >= 2 ? segments[at + 1] : null;
        String subresource = left >= 3 ? segments[at + 2] : null;
        return Optional.of(new ResourcePath(group, version, namespace, resource, name, subresource));
    }

    /** As Kubernetes names the resource in its errors: {@code pytorchjobs.kubeflow.org}, or {@code namespaces} in the core group. */
    String qualifiedResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    /** The path of the object itself, without its subresource. */
    String objectPath() {
        String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return prefix + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + resource + (name == null ? "" : "/" + name);
    }
}
