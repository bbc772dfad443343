package dev.muster.simulator.cluster;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What each client did on the simulated API servers, in RBAC's terms: who (the first word of its User-Agent, which
 * Muster's services set to their own names), on which kind of server (the fleet, or a member), which verb on which
 * resource of which API group. Distinct accesses with a count each, so a run of hours costs a few hundred entries. Tests check
 * the chart's Roles against it: every access allowed, every rule used.
 */
public final class AccessLog {

    /** A request as RBAC sees it. {@code group} is empty for the core API; {@code subresource} empty for none. */
    public record Access(String client, String server, String group, String resource, String subresource, String verb) {

        /** The resource as a Role names it: {@code pods}, or {@code pytorchjobs/status}. */
        public String roleResource() {
            return subresource.isEmpty() ? resource : resource + "/" + subresource;
        }
    }

    /** How many requests of each access, so far: what a benchmark divides by its jobs to say what a job costs the API servers. */
    private static final Map<Access, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private AccessLog() {
    }

    /** Every distinct access so far, of every server in this JVM. */
    public static Set<Access> accesses() {
        return Set.copyOf(COUNTS.keySet());
    }

    /** How many requests of each distinct access were answered so far, of every server in this JVM. */
    public static Map<Access, Long> counts() {
        Map<Access, Long> counts = new java.util.HashMap<>();
        COUNTS.forEach((access, count) -> counts.put(access, count.sum()));
        return counts;
    }

    /** Records one request to a server of this kind ({@code fleet} or {@code member}); discovery and other non-resource paths are not resources. */
    static void record(String server, String userAgent, String method, String pathAndQuery) {
        access(server, userAgent, method, pathAndQuery).ifPresent(access -> COUNTS.computeIfAbsent(access, key -> new LongAdder()).increment());
    }

    static Optional<Access> access(String server, String userAgent, String method, String pathAndQuery) {
        int query = pathAndQuery.indexOf('?');
        String path = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
        boolean watch = query >= 0 && pathAndQuery.substring(query + 1).matches("(.*&)?watch=(true|1)(&.*)?");
        List<String> parts = List.of(path.replaceAll("^/+|/+$", "").split("/"));
        String group;
        int rest;
        if (parts.size() >= 2 && parts.get(0).equals("api")) {
            group = "";
            rest = 2;
        } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            rest = 3;
        } else {
            return Optional.empty();
        }
        List<String> resourcePath = parts.subList(rest, parts.size());
        if (resourcePath.size() >= 2 && resourcePath.get(0).equals("namespaces") && resourcePath.size() != 2) {
            // namespaces/<ns>/<resource>[/<name>[/<subresource>]]; namespaces/<name> alone is the namespace itself.
            resourcePath = resourcePath.subList(2, resourcePath.size());
        }
        if (resourcePath.isEmpty() || resourcePath.get(0).isEmpty()) {
            return Optional.empty();
        }
        String resource = resourcePath.get(0);
        boolean named = resourcePath.size() >= 2;
        String subresource = resourcePath.size() >= 3 ? resourcePath.get(2) : "";
        String verb = switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD" -> watch ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> method.toLowerCase(Locale.ROOT);
        };
        String client = userAgent == null || userAgent.isBlank() ? "unknown" : userAgent.split("[/ ]", 2)[0];
        return Optional.of(new Access(client, server, group, resource, subresource, verb));
    }
}
