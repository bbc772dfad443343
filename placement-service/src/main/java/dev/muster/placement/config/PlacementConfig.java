package dev.muster.placement.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.fit.Scoring;
import dev.muster.placement.core.topology.TopologyLevels;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration of the placement service ({@code muster.placement.*}). */
@ConfigMapping(prefix = "muster.placement")
public interface PlacementConfig {

    /**
     * This instance's name, which must stay the same across its restarts and differ from every other instance's
     * (a StatefulSet pod's name): its Kafka transactional id, so a restarted instance aborts the transaction its
     * killed predecessor left open instead of readers waiting for Kafka's transaction timeout. Default: a random
     * one per start.
     */
    Optional<String> instanceId();

    /**
     * The member clusters placement writes to, by cluster name, e.g.
     * {@code muster.placement.members.cluster-a.kubeconfig=/etc/muster/cluster-a}. Default: none.
     */
    Map<String, Member> members();

    /**
     * A directory of member kubeconfigs, {@code <cluster>.kubeconfig} each, read whenever a member is written to:
     * a cluster whose file appears there can be placed on while the service runs (it fits by {@code NODE}).
     * Members named in {@link #members()} as well take their settings from there. Default: none.
     */
    Optional<String> membersDirectory();

    /**
     * How long a member has to confirm every reservation of a gang before the next cluster is tried. Also how long a
     * reservation Muster made that nothing uses is left before it is released, and how soon a release the member did
     * not carry out (unreachable, placement restarted) is asked for again. Default 30s.
     */
    @WithDefault("30s")
    Duration reservationTimeout();

    /** The TTL written on each reservation, so one leaked by a crash frees itself. Default 10m. */
    @WithDefault("10m")
    Duration reservationTtl();

    /** The first wait before a job that fits nowhere is tried again; each further try doubles it. Default 1s. */
    @WithDefault("1s")
    Duration retryBackoff();

    /** The longest wait between tries of a job that fits nowhere. Default 1m. */
    @WithDefault("1m")
    Duration maxRetryBackoff();

    /**
     * How long a job admitted under quota may wait with no cluster able to take it before placement gives its
     * quota back to its queue (it waits there again at its original position). Default 5m.
     */
    @WithDefault("5m")
    Duration giveBackAfter();

    /** How long a job that failed over avoids the cluster it left. Default 10m. */
    @WithDefault("10m")
    Duration failoverExclusion();

    /**
     * How often a member is asked again whether a job preempted for a reclaim is gone (its copy, its pods, terminating
     * ones included, and its reservations); the reclaiming job is admitted only then. Default 1s.
     */
    @WithDefault("1s")
    Duration evictionCheck();

    /**
     * How long a new owner of the inputs (a restart, a takeover) waits to read what they held when it was given them
     * before it carries out the member writes its predecessor left owed anyway; the wait is over as soon as they are
     * read, which takes well under a second unless the inputs piled up. Default 30s.
     */
    @WithDefault("30s")
    Duration backlogPatience();

    /** How often reservation deadlines and retry backoffs are checked. Default 1s. */
    @WithDefault("1s")
    Duration tickInterval();

    /** How members are written to (reservations, member copies, releases). */
    MemberWrites memberWrites();

    /** How members are written to: each job's writes in the order decided, several jobs' at once. */
    interface MemberWrites {

        /**
         * How many jobs' member writes run at once (each waits for the member API's answer, and a job is bound only
         * once its copy is created); one job's writes always run in the order decided. Default 8.
         */
        @WithDefault("8")
        int parallel();
    }

    /**
     * For crash tests only: halt the process, as a crash would, right after this step of binding a job:
     * {@code committed} (the decision to reserve is committed, no member write made yet), {@code reserved} (its
     * reservations exist on the member), {@code created} (its member copy exists, not yet bound) or {@code bound}
     * (its binding is written); or right after asking a member to stop a job, {@code evicted} (a preemption for a
     * reclaim, a withdrawal or a deletion carried out, not yet reported). Default: never.
     */
    Optional<String> crashAfter();

    /**
     * The members' topology levels, broadest first, each a node label whose values are its domains. A job that prefers
     * a level and fits no domain of it is tried in the broader ones in turn. Default: a zone, a block of racks, a rack,
     * a node ({@code topology.kubernetes.io/zone}, {@code cloud.provider.com/topology-block},
     * {@code cloud.provider.com/topology-rack}, {@code kubernetes.io/hostname}).
     */
    @WithDefault("topology.kubernetes.io/zone,cloud.provider.com/topology-block,cloud.provider.com/topology-rack,kubernetes.io/hostname")
    List<String> topologyLevels();

    /**
     * How placement chooses among the nodes and member clusters a gang fits: {@code BEST_FIT} (each pod where the least
     * of its GPUs, else CPU, is left; the cluster left with the fewest partly used GPU nodes; the default) or
     * {@code FRAGMENTATION} (each pod, and the gang's cluster, where it raises the expected fragmentation of the latest
     * GPU pods' shapes least). On the openb trace neither allocates more GPUs than the other; see docs/architecture.md.
     */
    @WithDefault("BEST_FIT")
    Scoring scoring();

    /** One member cluster. */
    interface Member {

        /** Path of the kubeconfig file for the member's API server. */
        String kubeconfig();

        /** {@code NODE} (pack every pod on a node, the default) or {@code SUM_ESTIMATE} (the seed's total-free estimate). */
        @WithDefault("NODE")
        FitMode fitMode();
    }

    /** The core's settings from this configuration. */
    default PlacementSettings settings() {
        Map<String, FitMode> modes = new HashMap<>();
        members().forEach((cluster, member) -> modes.put(cluster, member.fitMode()));
        return new PlacementSettings(reservationTimeout(), reservationTtl(), retryBackoff(), maxRetryBackoff(), giveBackAfter(), failoverExclusion(),
                evictionCheck(), modes, new TopologyLevels(topologyLevels()), scoring());
    }
}
