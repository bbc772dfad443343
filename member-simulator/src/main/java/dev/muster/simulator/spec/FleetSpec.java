package dev.muster.simulator.spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.muster.model.json.MusterJson;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.validation.InvalidObjectException;
import dev.muster.model.validation.Violation;
import dev.muster.model.validation.Violations;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * The simulated member clusters of a fleet, as a cluster spec file (YAML) declares them.
 *
 * @param timeSpeed how many times faster than real time the clusters run (start delays, pod durations,
 *                  reservation TTLs, evictions); 1 when absent
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record FleetSpec(Double timeSpeed, List<ClusterSpec> clusters) {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    public FleetSpec {
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }

    /** How fast the clusters' time runs. */
    public dev.muster.simulator.time.SimulatedTime time() {
        return timeSpeed == null ? dev.muster.simulator.time.SimulatedTime.REAL : new dev.muster.simulator.time.SimulatedTime(timeSpeed);
    }

    /** The same clusters at another speed. */
    public FleetSpec withTimeSpeed(double speed) {
        return new FleetSpec(speed, clusters);
    }

    /**
     * Reads and checks a spec file.
     *
     * @throws InvalidObjectException naming every problem, e.g. {@code clusters[1].nodePools[0].count: must be >= 1, got 0}
     */
    public static FleetSpec read(Path file) throws IOException {
        return parse(Files.readString(file), file.getFileName().toString());
    }

    /** Parses and checks spec text; {@code origin} names it in errors. */
    public static FleetSpec parse(String yaml, String origin) {
        FleetSpec spec;
        try {
            spec = MusterJson.yaml().readValue(yaml, FleetSpec.class);
        } catch (IOException e) {
            throw new InvalidObjectException("cluster spec " + origin, List.of(new Violation("", MusterJson.firstLine(e.getMessage()))));
        }
        List<Violation> violations = spec.validate();
        if (!violations.isEmpty()) {
            throw new InvalidObjectException("cluster spec " + origin, violations);
        }
        return spec;
    }

    private List<Violation> validate() {
        Violations violations = new Violations();
        if (timeSpeed != null && (!(timeSpeed > 0) || timeSpeed.isInfinite())) {
            violations.add("timeSpeed", "must be a positive number, got " + timeSpeed);
        }
        if (clusters.isEmpty()) {
            violations.add("clusters", "must declare at least one cluster");
        }
        Set<String> names = new HashSet<>();
        for (int c = 0; c < clusters.size(); c++) {
            ClusterSpec cluster = clusters.get(c);
            String path = "clusters[" + c + "]";
            if (cluster.name() == null || !DNS_LABEL.matcher(cluster.name()).matches()) {
                violations.add(path + ".name", "must be a DNS label, got " + (cluster.name() == null ? "nothing" : "\"" + cluster.name() + "\""));
            } else if (!names.add(cluster.name())) {
                violations.add(path + ".name", "duplicate cluster name \"" + cluster.name() + "\"");
            }
            List<NodePoolSpec> pools = cluster.nodePools();
            for (int p = 0; p < pools.size(); p++) {
                NodePoolSpec pool = pools.get(p);
                String poolPath = path + ".nodePools[" + p + "]";
                if (pool.name() == null || !DNS_LABEL.matcher(pool.name()).matches()) {
                    violations.add(poolPath + ".name", "must be a DNS label");
                }
                if (pool.topology() != null && (pool.topology().nodesPerRack() < 1 || pool.topology().racksPerBlock() < 0)) {
                    violations.add(poolPath + ".topology", "needs nodesPerRack >= 1 and racksPerBlock >= 0, got " + pool.topology().nodesPerRack()
                            + " and " + pool.topology().racksPerBlock());
                }
                if (pool.count() < 1) {
                    violations.add(poolPath + ".count", "must be >= 1, got " + pool.count());
                }
                int before = violations.list().size();
                violations.quantities(poolPath + ".allocatable", quantities(pool.allocatable()));
                if (violations.list().size() == before) {
                    validateLoad(poolPath, pool, violations);
                }
            }
        }
        return violations.list();
    }

    private static void validateLoad(String poolPath, NodePoolSpec pool, Violations violations) {
        int nodes = 0;
        ResourceList allocatable = allocatable(pool);
        for (int l = 0; l < pool.load().size(); l++) {
            LoadSpec load = pool.load().get(l);
            String loadPath = poolPath + ".load[" + l + "]";
            if (load.nodes() < 1) {
                violations.add(loadPath + ".nodes", "must be >= 1, got " + load.nodes());
            }
            nodes += Math.max(0, load.nodes());
            if (load.pods() < 1) {
                violations.add(loadPath + ".podsPerNode", "must be >= 1, got " + load.pods());
            }
            int before = violations.list().size();
            violations.quantities(loadPath + ".requests", quantities(load.requests()));
            if (violations.list().size() == before) {
                ResourceList perNode = ResourceList.parse(load.requests()).times(Math.max(1, load.pods()));
                for (String resource : perNode.exceeding(allocatable)) {
                    violations.add(loadPath + ".requests." + resource, "asks for " + perNode.format(resource)
                            + " per node, more than a node's allocatable " + allocatable.format(resource));
                }
            }
        }
        if (nodes > pool.count()) {
            violations.add(poolPath + ".load", "covers " + nodes + " nodes, the pool has " + pool.count());
        }
    }

    /** The pool's allocatable as a resource list; call only on a spec {@link #parse} accepted. */
    public static ResourceList allocatable(NodePoolSpec pool) {
        return ResourceList.parse(pool.allocatable());
    }

    private static Map<String, Quantity> quantities(Map<String, String> texts) {
        Map<String, Quantity> map = new java.util.LinkedHashMap<>();
        texts.forEach((name, text) -> map.put(name, text == null ? null : new Quantity(text)));
        return map;
    }

    /** Names every cluster, in the order declared. */
    public List<String> clusterNames() {
        List<String> list = new ArrayList<>();
        clusters.forEach(cluster -> list.add(cluster.name()));
        return list;
    }
}
