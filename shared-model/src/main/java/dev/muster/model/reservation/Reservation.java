package dev.muster.model.reservation;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Koordinator's reservation ({@code scheduling.koordinator.sh/v1alpha1 Reservation}, cluster-scoped): capacity a
 * member's scheduler holds on one node for the pods its owners match, so that Muster can confirm a gang's place
 * before it commits the job there.
 */
@Group(Reservation.GROUP)
@Version(Reservation.VERSION)
@Kind(Reservation.KIND)
@Plural("reservations")
public class Reservation extends CustomResource<ReservationSpec, ReservationStatus> {

    public static final String GROUP = "scheduling.koordinator.sh";
    public static final String VERSION = "v1alpha1";
    public static final String KIND = "Reservation";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    /** Waiting for the scheduler to find it a node. */
    public static final String PENDING = "Pending";
    /** Holding capacity on {@code status.nodeName}. */
    public static final String AVAILABLE = "Available";
    /** Used up by its owner pods ({@code allocateOnce}). */
    public static final String SUCCEEDED = "Succeeded";
    /** Expired or otherwise given up; holds nothing. */
    public static final String FAILED = "Failed";

    /** The phase, {@link #PENDING} when the scheduler has not written one yet. */
    public String phase() {
        return getStatus() == null || getStatus().phase() == null ? PENDING : getStatus().phase();
    }
}
