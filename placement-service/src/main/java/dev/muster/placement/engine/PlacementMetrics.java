package dev.muster.placement.engine;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.reservation.Reservation;
import dev.muster.placement.core.binding.MemberCommand;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The placement service's Prometheus metrics: placement latency (admission to binding), attempts and bindings per cluster,
 * failures by reason, reservations created, confirmed, released and expired, and each member's free GPUs as placement sees them.
 */
@ApplicationScoped
public class PlacementMetrics {

    private final MeterRegistry registry;
    private final Timer latency;
    private final Counter reservationsCreated;
    private final Counter reservationsConfirmed;
    private final Counter reservationsReleased;
    private final Counter reservationsExpired;
    /** Muster's reservations seen Failed, by {@code cluster/name}, so each counts once; forgotten when they go. */
    private final java.util.Set<String> failedReservations = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> admittedAt = new ConcurrentHashMap<>();
    private final Map<String, Boolean> gpuGauges = new ConcurrentHashMap<>();
    private volatile Supplier<Set<String>> clusters = Set::of;
    private volatile Function<String, BigDecimal> freeGpu = cluster -> BigDecimal.ZERO;

    PlacementMetrics(MeterRegistry registry) {
        this.registry = registry;
        latency = Timer.builder("muster.placement.latency").description("From admission to the job bound on a member")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(10)).maximumExpectedValue(Duration.ofMinutes(30))
                .register(registry);
        reservationsCreated = Counter.builder("muster.placement.reservations").tag("outcome", "created")
                .description("Reservations asked of members").register(registry);
        reservationsConfirmed = Counter.builder("muster.placement.reservations").tag("outcome", "confirmed")
                .description("Gangs whose reservations all became Available").register(registry);
        reservationsReleased = Counter.builder("muster.placement.reservations").tag("outcome", "released")
                .description("Reservations released: not confirmed in time, refused, or their job gone").register(registry);
        reservationsExpired = Counter.builder("muster.placement.reservations").tag("outcome", "expired")
                .description("Muster's reservations the member gave up on (Failed: expired unused, or unschedulable)").register(registry);
        // Every reason at 0 from the start, so that a rate over them is there before the first failure (Prometheus' advice).
        FAILURE_CATEGORIES.forEach(reason -> registry.counter("muster.placement.failures", Tags.of(Tag.of("reason", reason))));
    }

    /**
     * Where the free-GPU gauges read from: the members, asked after each decision (cheap), and each member's
     * free GPUs, asked only when the gauges are scraped (it may rebuild that member's node index).
     */
    void observeFreeGpu(Supplier<Set<String>> clusters, Function<String, BigDecimal> freeGpu) {
        this.clusters = clusters;
        this.freeGpu = freeGpu;
    }

    void consumed(MusterEvent event) {
        if (event instanceof JobEvent job && job.data() instanceof JobAdmitted) {
            admittedAt.putIfAbsent(job.job().uid(), job.time());
        } else if (event instanceof MemberEvent member && member.data() instanceof MemberEventData.ReservationReported reported) {
            ReservationSnapshot reservation = reported.reservation();
            if (reservation.fleetJobUid() != null && Reservation.FAILED.equals(reservation.phase())
                    && failedReservations.add(reported.cluster() + "/" + reservation.name())) {
                reservationsExpired.increment();
            }
        } else if (event instanceof MemberEvent member && member.data() instanceof MemberEventData.ReservationRemoved removed) {
            failedReservations.remove(removed.cluster() + "/" + removed.reservation());
        }
    }

    void decided(List<JobEvent> events, List<MemberCommand> commands) {
        for (JobEvent event : events) {
            if (event.data() instanceof PlacementAttempted attempted) {
                registry.counter("muster.placement.attempts", Tags.of(Tag.of("cluster", attempted.cluster()))).increment();
            } else if (event.data() instanceof PlacementFailed failed) {
                failed.clusterReasons().values().forEach(reason ->
                        registry.counter("muster.placement.failures", Tags.of(Tag.of("reason", category(reason)))).increment());
            } else if (event.data() instanceof JobBound bound) {
                registry.counter("muster.placement.bindings", Tags.of(Tag.of("cluster", bound.cluster()))).increment();
                Instant admitted = admittedAt.remove(event.job().uid());
                if (admitted != null) {
                    latency.record(Duration.between(admitted, event.time()));
                }
            }
        }
        for (MemberCommand command : commands) {
            if (command instanceof MemberCommand.Reserve reserve) {
                reservationsCreated.increment(reserve.reservations().size());
            } else if (command instanceof MemberCommand.Release release) {
                reservationsReleased.increment(release.reservations().size());
            } else if (command instanceof MemberCommand.CreateJob create && create.memberJob().getMetadata().getAnnotations()
                    .containsKey(MemberJobs.RESERVATION)) {
                reservationsConfirmed.increment();
            }
        }
        registerGpuGauges();
    }

    private void registerGpuGauges() {
        for (String cluster : clusters.get()) {
            gpuGauges.computeIfAbsent(cluster, name -> {
                Gauge.builder("muster.placement.free.gpu", () -> freeGpu.apply(name).doubleValue())
                        .tag("cluster", name).description("Free GPUs on the member's Ready nodes, as placement sees them").register(registry);
                return true;
            });
        }
    }

    /** Every value {@link #category} gives. */
    static final List<String> FAILURE_CATEGORIES = List.of("no-node-fits", "not-enough-in-total", "cluster-affinity", "failover-exclusion",
            "member-unreachable", "no-ready-node", "reservation-timeout", "member-refused", "other");

    /** A small, fixed set of labels for why a cluster could not take a job; the full reason is in the event. */
    static String category(String reason) {
        if (reason.startsWith("no node has")) {
            return "no-node-fits";
        }
        if (reason.startsWith("the gang needs")) {
            return "not-enough-in-total";
        }
        if (reason.startsWith("not in clusterAffinity") || reason.contains("clusterAffinity.labelSelector")) {
            return "cluster-affinity";
        }
        if (reason.startsWith("excluded after a failover")) {
            return "failover-exclusion";
        }
        if (reason.contains("unreachable") || reason.startsWith("the member has not reported")) {
            return "member-unreachable";
        }
        if (reason.startsWith("no Ready")) {
            return "no-ready-node";
        }
        if (reason.startsWith("reservations not confirmed")) {
            return "reservation-timeout";
        }
        if (reason.contains(" failed: ") || reason.startsWith("reservation ")) {
            return "member-refused";
        }
        return "other";
    }
}
