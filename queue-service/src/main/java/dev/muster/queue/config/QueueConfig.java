package dev.muster.queue.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration of the queue service ({@code muster.queue.*}). */
@ConfigMapping(prefix = "muster.queue")
public interface QueueConfig {

    /**
     * This instance's name, which must stay the same across its restarts and differ from every other instance's
     * (a StatefulSet pod's name): its Kafka transactional id, so a restarted instance aborts the transaction its
     * killed predecessor left open instead of readers waiting for Kafka's transaction timeout. Default: a random
     * one per start.
     */
    Optional<String> instanceId();

    /** A job waiting this long holds capacity for itself, so smaller jobs stop passing it. Default 10 minutes. */
    @WithDefault("10m")
    Duration starvationAge();

    /** How long a job given back by placement waits before it may be admitted again; doubles each time. Default 30 s. */
    @WithDefault("30s")
    Duration giveBackBackoff();

    /** How often the queues are re-evaluated for decisions only time changes (backoffs, starvation). Default 5 s. */
    @WithDefault("5s")
    Duration reevaluationInterval();

    /**
     * How often the waiting jobs' start-time estimates are worked out again (a replay of the queue, about a second of
     * one core for 1,000 waiting jobs), and told on the next re-evaluation to the jobs whose estimate moved enough
     * (their waiting condition and QueueUnit). {@code 0s} works them out only when a view asks. Default 30 s.
     */
    @WithDefault("30s")
    Duration startTimeRefresh();

    /**
     * How long the quota limit a waiting job was told blocks it may lag behind the one that blocks it now. Under
     * overload thousands of jobs wait and none of most events' passes can admit more than a few: within this time of a
     * pass that told every waiting job why it waits, a pass stops once none of the jobs left can be admitted (a new job is
     * still told at once). {@code 0s} tells every waiting job in every pass. Default 30 s.
     */
    @WithDefault("30s")
    Duration reasonRefresh();

    /** Quota leaves whose queue is strict FIFO (nothing passes a head that does not fit). Default: none. */
    Optional<Set<String>> strictFifoLeaves();

    /**
     * Who may submit on a secured Kafka cluster, by the name of its Kafka principal (a SCRAM user's name): it writes
     * its own inbox, {@code muster.job.submissions.<principal>}, and may submit to and delete from the namespaces
     * listed here only, e.g. {@code muster.queue.submitters."team-a-ci".namespaces=team-a}. Default: none (on an open
     * cluster producers write {@code muster.job.submissions} itself).
     */
    Map<String, Submitter> submitters();

    /** One submitter. */
    interface Submitter {

        /** The namespaces it may submit jobs to and delete them from; at least one. */
        Set<String> namespaces();
    }

    /** The fleet API server users apply manifests to (the {@code kubectl} path). */
    FleetApi fleetApi();

    /** How the service follows the fleet API. */
    interface FleetApi {

        /** Whether to watch the fleet API for PyTorchJobs, PropagationPolicies and the ElasticQuotaTree. Default true. */
        @WithDefault("true")
        boolean watch();

        /**
         * How often the watches hand every object they hold to the handlers again (fabric8's resync: from their cache,
         * with no request to the API server). Default 10 minutes.
         */
        @WithDefault("10m")
        Duration resync();

        /**
         * How often the jobs the queue holds from the fleet API are looked for there: one no longer there was deleted
         * while the queue was not watching (down, or killed before it passed the deletion on), and is deleted now.
         * Default 10 seconds.
         */
        @WithDefault("10s")
        Duration missedDeletionCheck();

    }
}
