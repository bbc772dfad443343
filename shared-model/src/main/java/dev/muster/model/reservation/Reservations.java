package dev.muster.model.reservation;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.muster.model.label.LabelSelectors;
import dev.muster.model.time.GoDurations;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;

/** How a reservation holds capacity and which pods may use it, as koordinator's scheduler reads it. */
public final class Reservations {

    /** Koordinator's default lifetime of an unused reservation. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    private Reservations() {
    }

    /** The pod the reservation holds capacity for. */
    public static PodSpec podSpec(Reservation reservation) {
        return reservation.getSpec() == null || reservation.getSpec().template() == null
                || reservation.getSpec().template().getSpec() == null ? new PodSpec() : reservation.getSpec().template().getSpec();
    }

    /** The node the template pins the reservation to, if any. */
    public static Optional<String> pinnedNode(Reservation reservation) {
        return Optional.ofNullable(reservation.getSpec()).map(ReservationSpec::template)
                .map(template -> template.getSpec() == null ? null : template.getSpec().getNodeName());
    }

    /** Whether the reservation holds capacity on a node now. */
    public static boolean isHolding(Reservation reservation) {
        return Reservation.AVAILABLE.equals(reservation.phase()) && reservation.getStatus().nodeName() != null;
    }

    /** Whether the pod matches one of the reservation's owners and so may use it. */
    public static boolean isOwnedBy(Reservation reservation, Pod pod) {
        if (reservation.getSpec() == null) {
            return false;
        }
        for (ReservationOwner owner : reservation.getSpec().owners()) {
            if (matches(owner, pod)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(ReservationOwner owner, Pod pod) {
        if (owner.object() != null) {
            ObjectReference object = owner.object();
            if (object.getUid() != null) {
                return object.getUid().equals(pod.getMetadata().getUid());
            }
            return Objects.equals(object.getName(), pod.getMetadata().getName())
                    && (object.getNamespace() == null || object.getNamespace().equals(pod.getMetadata().getNamespace()));
        }
        if (owner.controller() != null) {
            ObjectReference controller = owner.controller();
            List<OwnerReference> references = pod.getMetadata().getOwnerReferences();
            return references != null && references.stream().anyMatch(reference -> Boolean.TRUE.equals(reference.getController())
                    && Objects.equals(reference.getName(), controller.getName())
                    && (controller.getKind() == null || controller.getKind().equals(reference.getKind()))
                    && (controller.getNamespace() == null || controller.getNamespace().equals(pod.getMetadata().getNamespace())));
        }
        if (owner.labelSelector() != null) {
            return LabelSelectors.matches(owner.labelSelector(), pod.getMetadata().getLabels() == null ? java.util.Map.of() : pod.getMetadata().getLabels());
        }
        return false;
    }

    /**
     * When the reservation expires: {@code spec.expires} if set, else its creation plus {@code spec.ttl}
     * (24h when absent). Empty when the spec's time is unreadable; such a reservation never expires.
     */
    public static Optional<Instant> expiry(Reservation reservation) {
        ReservationSpec spec = reservation.getSpec();
        if (spec != null && spec.expires() != null) {
            try {
                return Optional.of(Instant.parse(spec.expires()));
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        String created = reservation.getMetadata().getCreationTimestamp();
        if (created == null) {
            return Optional.empty();
        }
        Optional<Duration> ttl = spec == null || spec.ttl() == null ? Optional.of(DEFAULT_TTL) : GoDurations.parse(spec.ttl());
        return ttl.map(duration -> Instant.parse(created).plus(duration));
    }
}
