package dev.muster.statussync.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration of the status-sync service ({@code muster.status-sync.*}). */
@ConfigMapping(prefix = "muster.status-sync")
public interface StatusSyncConfig {

    /**
     * The member clusters to watch, by cluster name, e.g. {@code muster.status-sync.members.cluster-a.kubeconfig=/etc/muster/cluster-a}.
     * Default: none.
     */
    Map<String, Member> members();

    /**
     * A directory of member kubeconfigs, {@code <cluster>.kubeconfig} each: a cluster joins the fleet when its
     * file appears there and leaves when the file goes, while the service runs (see {@code MemberDirectory}).
     * Members named in {@link #members()} as well take their settings from there. Default: none.
     */
    Optional<String> membersDirectory();

    /** How often the members directory is looked at again. Default 5s. */
    @WithDefault("5s")
    Duration membersRescan();

    /** How often each member's API is probed for reachability. Default 5s. */
    @WithDefault("5s")
    Duration healthInterval();

    /** How long the member's informers wait before a full resync (which reports only real changes). Default 10m. */
    @WithDefault("10m")
    Duration resync();

    /** How often tolerations are checked and unconfirmed purges asked again. Default 1s. */
    @WithDefault("1s")
    Duration tickInterval();

    /** How jobs that cannot run where they are placed are moved. */
    Failover failover();

    /**
     * For crash tests only: halt the process, as a crash would, right after this step: {@code failed-over} (a
     * failover's event is on the broker, the copy it leaves behind not yet purged) or {@code purged} (a member
     * confirmed a copy's purge, nothing more of it done). Default: never.
     */
    Optional<String> crashAfter();

    /** How the fleet API is written to. */
    FleetWrites fleetWrites();

    /** How status sync's events are sent again when the broker did not take them. */
    EventRetries eventRetries();

    /**
     * An event the producer gave up on (the broker away past its {@code delivery.timeout.ms}) is sent again until the
     * broker has it; the copies it concerns are purged only then. So is an inventory report, unless a later report of the
     * same object was sent meanwhile.
     */
    interface EventRetries {

        /** The wait before an event is sent again; doubles each time. Default 1 s. */
        @WithDefault("1s")
        Duration backoff();

        /** The longest wait between two sends of one event. Default 30 s. */
        @WithDefault("30s")
        Duration maxBackoff();
    }

    /** How the fleet API is written to: each job's writes in order, several jobs' at once. */
    interface FleetWrites {

        /**
         * How many jobs' writes run at once (each waits for the fleet API's answer); one job's writes always run
         * in the order decided. Default 8.
         */
        @WithDefault("8")
        int parallel();

        /**
         * How many consumed events may wait for their fleet writes before consuming pauses; an event's offset is
         * committed once its writes are done. Default 256.
         */
        @WithDefault("256")
        int pending();

        /** The wait before a write the fleet API did not answer (or answered 5xx) is tried again; doubles each time. Default 500 ms. */
        @WithDefault("500ms")
        java.time.Duration retryBackoff();

        /**
         * The longest wait between tries of one fleet write: also how long the fleet may lag behind once the fleet API
         * is back after an outage. Default 10 s.
         */
        @WithDefault("10s")
        java.time.Duration maxRetryBackoff();
    }

    /** How jobs are failed over. */
    interface Failover {

        /**
         * A job placed this many times over (failed over this often) that fails again is finished as Failed
         * rather than moved again, so a job that fails everywhere does not circle the fleet. Default 3.
         */
        @WithDefault("3")
        int maxFailovers();

        /** How long to wait for a member to confirm the deletion of a copy before asking again. Default 10s. */
        @WithDefault("10s")
        Duration purgeRetry();
    }

    /** How to reach one member cluster. */
    interface Member {

        /** Path of the kubeconfig file for the member's API server. */
        String kubeconfig();

        /** The cluster's own labels, for {@code clusterAffinity.labelSelector}; added to those its {@code kube-system/muster-member} ConfigMap carries. Default: none. */
        Map<String, String> labels();
    }
}
