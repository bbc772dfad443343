package dev.muster.simulator.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.ReservationCondition;
import dev.muster.model.reservation.ReservationStatus;
import dev.muster.model.reservation.Reservations;
import dev.muster.model.resource.PodRequests;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.time.GoDurations;
import dev.muster.simulator.scheduling.GangScheduler.Bind;
import dev.muster.simulator.scheduling.GangScheduler.ClusterState;
import dev.muster.simulator.scheduling.GangScheduler.Decision;
import dev.muster.simulator.scheduling.GangScheduler.Expire;
import dev.muster.simulator.scheduling.GangScheduler.Reserve;
import dev.muster.simulator.scheduling.GangScheduler.ReservationUnschedulable;
import dev.muster.simulator.scheduling.GangScheduler.Unschedulable;
import dev.muster.simulator.time.SimulatedTime;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Runs {@link GangScheduler} against one simulated cluster's API server: whenever a pod, node or reservation
 * changes (and when an unused reservation is due to expire), one scheduling pass over everything pending, then
 * binds ({@code spec.nodeName} and {@code PodScheduled=True}, through the binding subresource) or reports
 * {@code PodScheduled=False, reason Unschedulable} with the message, as kube-scheduler does, and writes reservations'
 * status as koordinator does. Passes run one at a time on the controller's own thread (a pass's plain binds on a few
 * more); a change during a pass asks for one more.
 */
public final class SchedulerController implements AutoCloseable {

    /** Plain binds of one pass written at once. */
    private static final int BINDERS = 4;
    private static final System.Logger LOG = System.getLogger(SchedulerController.class.getName());

    private final KubernetesClient client;
    private final String cluster;
    private final SimulatedTime time;
    private final ScheduledExecutorService passes;
    /** Binds of one pass at once: each waits for the API server, and a pass may decide hundreds. */
    private final ExecutorService binders;
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile boolean paused;
    private volatile boolean reservationsPaused;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<Reservation> reservations;
    private final boolean reservationsServed;
    private final PodSnapshotMemo podSnapshots = new PodSnapshotMemo();

    private SchedulerController(KubernetesClient client, String cluster, boolean reservationsServed, SimulatedTime time) {
        this.client = client;
        this.cluster = cluster;
        this.time = time;
        this.reservationsServed = reservationsServed;
        this.passes = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "scheduler-" + cluster);
            thread.setDaemon(true);
            return thread;
        });
        AtomicInteger binderThreads = new AtomicInteger();
        this.binders = Executors.newFixedThreadPool(BINDERS, runnable -> {
            Thread thread = new Thread(runnable, "scheduler-" + cluster + "-bind-" + binderThreads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.pods = client.pods().inAnyNamespace().inform(trigger());
        this.nodes = client.nodes().inform(trigger());
        this.reservations = reservationsServed ? client.resources(Reservation.class).inform(trigger()) : null;
    }

    /**
     * Starts scheduling the cluster the client reaches; {@code cluster} names it in logs and threads.
     * {@code reservationsServed} says whether the cluster serves koordinator's Reservation API.
     */
    public static SchedulerController start(KubernetesClient client, String cluster, boolean reservationsServed, SimulatedTime time) {
        SchedulerController controller = new SchedulerController(client, cluster, reservationsServed, time);
        controller.request();
        return controller;
    }

    private <T> ResourceEventHandler<T> trigger() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                request();
            }

            @Override
            public void onUpdate(T old, T object) {
                request();
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                request();
            }
        };
    }

    private void request() {
        if (requested.compareAndSet(false, true) && !passes.isShutdown()) {
            passes.execute(this::pass);
        }
    }

    private void pass() {
        requested.set(false);
        if (paused || pods == null || nodes == null || reservationsServed && reservations == null) {
            // An informer's first event arrived while the constructor was still starting the others; start() asks again.
            return;
        }
        try {
            List<Reservation> known = reservations == null ? List.of() : reservations.getStore().list();
            Instant now = Instant.now();
            List<Decision> decisions = GangScheduler.schedule(new ClusterState(nodes.getStore().list(), pods.getStore().list(),
                    known, now, this::expiry, podSnapshots::of));
            podSnapshots.passOver();
            // Plain binds are independent of each other and run at once; a bind with a reservation updates the
            // reservation's owners, and the other decisions change reservations too: those run one by one, in order.
            List<CompletableFuture<Void>> binds = new ArrayList<>();
            for (Decision decision : decisions) {
                if (decision instanceof Bind bind && bind.reservation().isEmpty()) {
                    binds.add(CompletableFuture.runAsync(() -> apply(bind), binders));
                } else {
                    apply(decision);
                }
            }
            binds.forEach(CompletableFuture::join);
            wakeForNextExpiry(known, now);
        } catch (RuntimeException e) {
            if (!passes.isShutdown()) {
                LOG.log(System.Logger.Level.WARNING, "scheduling pass on " + cluster + " failed; retried on the next change", e);
            }
        }
    }

    /** Stops deciding: pods stay Pending and reservations unconfirmed, as when the member's scheduler is down. */
    public void pause() {
        paused = true;
    }

    /** Decides again, starting with everything that waited. */
    public void resume() {
        paused = false;
        request();
    }

    public boolean isPaused() {
        return paused;
    }

    /** Confirms no reservation (they stay Pending) while still binding pods, as a reservation plugin that stopped working. */
    public void pauseReservations() {
        reservationsPaused = true;
    }

    public void resumeReservations() {
        reservationsPaused = false;
        request();
    }

    public boolean reservationsPaused() {
        return reservationsPaused;
    }

    /** The reservation's expiry with its lifetime run at the simulation's speed. */
    private Optional<Instant> expiry(Reservation reservation) {
        String created = reservation.getMetadata().getCreationTimestamp();
        return Reservations.expiry(reservation).map(expiry -> created == null ? expiry
                : Instant.parse(created).plus(time.real(Duration.between(Instant.parse(created), expiry))));
    }

    private void wakeForNextExpiry(List<Reservation> known, Instant now) {
        known.stream().filter(reservation -> Reservation.PENDING.equals(reservation.phase()) || Reservation.AVAILABLE.equals(reservation.phase()))
                .map(this::expiry).flatMap(Optional::stream).filter(expiry -> expiry.isAfter(now)).min(Instant::compareTo)
                .ifPresent(next -> passes.schedule(this::request, Duration.between(now, next).toMillis() + 1, TimeUnit.MILLISECONDS));
    }

    private void apply(Decision decision) {
        try {
            if (decision instanceof Bind bind) {
                bind(bind);
            } else if (decision instanceof Unschedulable unschedulable && !alreadySays(unschedulable.pod(), unschedulable.message())) {
                pod(unschedulable.pod()).editStatus(current -> withScheduled(current, "False", "Unschedulable", unschedulable.message()));
            } else if (decision instanceof Reserve reserve) {
                if (!reservationsPaused) {
                    reserve(reserve);
                }
            } else if (decision instanceof ReservationUnschedulable unschedulable) {
                reservationUnschedulable(unschedulable);
            } else if (decision instanceof Expire expire) {
                expire(expire);
            }
        } catch (KubernetesClientException e) {
            // Deleted or changed meanwhile: the change itself asks for another pass.
            LOG.log(System.Logger.Level.DEBUG, cluster + ": " + decision + " not applied: " + e.getMessage());
        }
    }

    private void bind(Bind bind) {
        Pod pod = bind.pod();
        // Through the binding subresource, as kube-scheduler binds: the node and the PodScheduled condition in one
        // write, refused (409) if the pod was bound meanwhile.
        client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
                .withNewMetadata().withName(pod.getMetadata().getName()).withNamespace(pod.getMetadata().getNamespace()).endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(bind.node()).endTarget()
                .build()).create();
        bind.reservation().ifPresent(reservation -> client.resources(Reservation.class).withName(reservation.getMetadata().getName())
                .editStatus(current -> {
                    ReservationStatus status = current.getStatus();
                    if (status.currentOwners().stream().anyMatch(owner -> pod.getMetadata().getUid().equals(owner.getUid()))) {
                        // A pass that ran on a cache from before this pod's binding bound it again: it owns its share once.
                        return current;
                    }
                    List<ObjectReference> owners = new ArrayList<>(status.currentOwners());
                    owners.add(new ObjectReferenceBuilder().withNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                            .withUid(pod.getMetadata().getUid()).build());
                    ResourceList allocated = ResourceList.fromQuantities(status.allocated()).plus(PodRequests.onNode(pod.getSpec()));
                    String phase = current.getSpec().isAllocateOnce() ? Reservation.SUCCEEDED : Reservation.AVAILABLE;
                    current.setStatus(new ReservationStatus(phase, status.conditions(), status.nodeName(), status.allocatable(),
                            allocated.toQuantities(), owners, status.additionalProperties()));
                    return current;
                }));
        LOG.log(System.Logger.Level.INFO, cluster + ": bound " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                + " to " + bind.node() + bind.reservation().map(reservation -> " using reservation " + reservation.getMetadata().getName()).orElse(""));
    }

    private void reserve(Reserve reserve) {
        String now = Instant.now().toString();
        client.resources(Reservation.class).withName(reserve.reservation().getMetadata().getName()).editStatus(current -> {
            current.setStatus(new ReservationStatus(Reservation.AVAILABLE, List.of(
                    new ReservationCondition("Scheduled", "True", "Scheduled", null, now, now),
                    new ReservationCondition("Ready", "True", "Available", null, now, now)),
                    reserve.node(), GangScheduler.holds(current).toQuantities(), null, null, null));
            return current;
        });
        LOG.log(System.Logger.Level.INFO, cluster + ": reservation " + reserve.reservation().getMetadata().getName() + " holds capacity on " + reserve.node());
    }

    private void reservationUnschedulable(ReservationUnschedulable unschedulable) {
        ReservationStatus status = unschedulable.reservation().getStatus();
        boolean alreadySaid = status != null && status.conditions().stream().anyMatch(condition -> "Scheduled".equals(condition.type())
                && Objects.equals(unschedulable.message(), condition.message()));
        if (alreadySaid) {
            return;
        }
        String now = Instant.now().toString();
        client.resources(Reservation.class).withName(unschedulable.reservation().getMetadata().getName()).editStatus(current -> {
            current.setStatus(new ReservationStatus(Reservation.PENDING, List.of(
                    new ReservationCondition("Scheduled", "False", "Unschedulable", unschedulable.message(), now, now)),
                    null, null, null, null, null));
            return current;
        });
    }

    private void expire(Expire expire) {
        Reservation reservation = expire.reservation();
        String now = Instant.now().toString();
        String lifetime = Optional.ofNullable(reservation.getSpec().ttl()).map(ttl -> "its ttl of " + ttl)
                .orElse(reservation.getSpec().expires() != null ? "its expiry at " + reservation.getSpec().expires()
                        : "the default ttl of " + GoDurations.format(Reservations.DEFAULT_TTL));
        String message = "reservation expired: unused after " + lifetime;
        client.resources(Reservation.class).withName(reservation.getMetadata().getName()).editStatus(current -> {
            ReservationStatus status = current.getStatus();
            List<ReservationCondition> conditions = new ArrayList<>(status == null ? List.of() : status.conditions());
            conditions.removeIf(condition -> "Ready".equals(condition.type()));
            conditions.add(new ReservationCondition("Ready", "False", "Expired", message, now, now));
            current.setStatus(new ReservationStatus(Reservation.FAILED, conditions, status == null ? null : status.nodeName(),
                    status == null ? null : status.allocatable(), null, null, null));
            return current;
        });
        LOG.log(System.Logger.Level.INFO, cluster + ": reservation " + reservation.getMetadata().getName() + " " + message);
    }

    private io.fabric8.kubernetes.client.dsl.PodResource pod(Pod pod) {
        return client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
    }

    private static boolean alreadySays(Pod pod, String message) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(condition -> "PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
                        && Objects.equals(message, condition.getMessage()));
    }

    private static Pod withScheduled(Pod pod, String status, String reason, String message) {
        PodStatus podStatus = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        if (podStatus.getPhase() == null) {
            podStatus.setPhase("Pending");
        }
        List<PodCondition> conditions = new ArrayList<>(podStatus.getConditions() == null ? List.of() : podStatus.getConditions());
        conditions.removeIf(condition -> "PodScheduled".equals(condition.getType()));
        conditions.add(new PodConditionBuilder().withType("PodScheduled").withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(Instant.now().toString()).build());
        podStatus.setConditions(conditions);
        pod.setStatus(podStatus);
        return pod;
    }

    @Override
    public void close() {
        passes.shutdownNow();
        binders.shutdownNow();
        pods.close();
        nodes.close();
        if (reservations != null) {
            reservations.close();
        }
    }
}
