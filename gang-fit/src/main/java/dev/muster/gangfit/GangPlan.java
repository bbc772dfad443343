package dev.muster.gangfit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The outcome of packing a gang onto one cluster's nodes: every pod's node, or why the gang does not fit. */
public sealed interface GangPlan {

    /**
     * @param nodes                 each pod's node, in the order the pods were placed
     * @param fragmentationIncrease how much the placement raises the cluster's expected fragmentation, in GPUs (see
     *                              {@link Workload}); 0 when packed without a workload
     */
    record Placed(Map<String, String> nodes, double fragmentationIncrease) implements GangPlan {

        public Placed {
            nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        }

        public Placed(Map<String, String> nodes) {
            this(nodes, 0);
        }
    }

    /** @param reason e.g. {@code no node has 8 nvidia.com/gpu free (largest free: 4 on node b-7)}, worded when read */
    record Unplaceable(Reason reason) implements GangPlan {

        public Unplaceable(String reason) {
            this(Reason.of(reason));
        }
    }
}
