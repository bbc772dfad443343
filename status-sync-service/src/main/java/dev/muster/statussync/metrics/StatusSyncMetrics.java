package dev.muster.statussync.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobEvent;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The status-sync service's Prometheus metrics: sync lag per member (from the member change to the fleet
 * status written), failovers by reason, purges, and each member's health.
 */
@ApplicationScoped
public class StatusSyncMetrics {

    /** Why a job fails over (FailoverTriggered's reasons). */
    static final java.util.List<String> FAILOVER_REASONS = java.util.List.of("MemberUnreachable", "JobFailed", "PodUnschedulable",
            "PodCrashLooping", "NodeNotReady");

    private final MeterRegistry registry;

    StatusSyncMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A member change reached the fleet job's status this long after it happened. */
    public void synced(String member, Duration lag) {
        Timer.builder("muster.status.sync.lag").description("From a member job's change to the fleet job's status showing it")
                .tag("member", member).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(registry).record(lag);
    }

    public void published(JobEvent event) {
        if (event.data() instanceof FailoverTriggered failover) {
            registry.counter("muster.status.failovers", Tags.of("reason", failover.reason(), "member", failover.fromCluster())).increment();
        }
    }

    public void purged(String member, boolean confirmed) {
        registry.counter("muster.status.purges", Tags.of("member", member, "outcome", confirmed ? "done" : "retrying")).increment();
    }

    /** A member left the fleet: its gauges go. */
    public void forgetMember(String member) {
        for (String name : new String[] {"muster.status.member.healthy", "muster.status.member.unseen.seconds", "muster.status.failovers"}) {
            registry.find(name).tag("member", member).meters().forEach(registry::remove);
        }
    }

    /** Gauges of one member's health: 1 when its API answers, and the seconds since it last did. */
    public void observeMember(String member, BooleanSupplier reachable, Supplier<Instant> lastSeenHealthy) {
        // Each failover reason at 0 from the start, so that an increase over them is there before the first failover.
        FAILOVER_REASONS.forEach(reason -> registry.counter("muster.status.failovers", Tags.of("reason", reason, "member", member)));
        Gauge.builder("muster.status.member.healthy", () -> reachable.getAsBoolean() ? 1 : 0).tag("member", member)
                .description("1 when the member's API answers its probe, 0 when not").register(registry);
        Gauge.builder("muster.status.member.unseen.seconds", () -> {
            Instant seen = lastSeenHealthy.get();
            return seen == null ? Double.NaN : Duration.between(seen, Instant.now()).toMillis() / 1000.0;
        }).tag("member", member).description("Seconds since the member's API last answered").register(registry);
    }
}
