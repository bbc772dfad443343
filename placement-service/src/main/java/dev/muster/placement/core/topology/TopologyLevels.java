package dev.muster.placement.core.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The topology levels of the fleet's members, broadest first, each a node label whose values are its domains: by
 * default a zone, a block of racks, a rack and a node, with the labels Kueue's documentation and Kubernetes use. A
 * member whose nodes lack a level has no domains at it. A job may require or prefer any node label; these levels are
 * the ones a preference climbs through when no domain of its own level fits.
 */
public record TopologyLevels(List<String> labels) {

    public static final String ZONE = "topology.kubernetes.io/zone";
    public static final String BLOCK = "cloud.provider.com/topology-block";
    public static final String RACK = "cloud.provider.com/topology-rack";
    public static final String HOSTNAME = "kubernetes.io/hostname";
    public static final TopologyLevels DEFAULT = new TopologyLevels(List.of(ZONE, BLOCK, RACK, HOSTNAME));

    public TopologyLevels {
        labels = List.copyOf(labels);
    }

    /**
     * The levels a preference for {@code level} tries in turn: that level, then each broader one up to the broadest.
     * A label that is no configured level is tried alone.
     */
    public List<String> fromNarrowToBroad(String level) {
        int position = labels.indexOf(level);
        if (position < 0) {
            return List.of(level);
        }
        List<String> tried = new ArrayList<>(position + 1);
        for (int broader = position; broader >= 0; broader--) {
            tried.add(labels.get(broader));
        }
        return tried;
    }
}
