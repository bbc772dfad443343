package dev.muster.statussync.kubernetes;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.statussync.core.mirror.MirrorDecisions.Purge;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Carries out purges on member clusters: deletes one member copy (only that copy: a newer copy of the same
 * job on the member is left alone) with the reservations made for it. Its pods go with it, by their owner
 * reference. A member that cannot be reached now is asked again later by the mirror.
 */
@ApplicationScoped
public class MemberPurger {

    private static final Logger LOG = Logger.getLogger(MemberPurger.class);

    private final MemberClients members;

    MemberPurger(MemberClients members) {
        this.members = members;
    }

    /** Whether the member confirmed the purge (the copy and its reservations are gone or going). */
    public boolean purge(Purge purge) {
        KubernetesClient client = members.client(purge.cluster()).orElse(null);
        if (client == null) {
            LOG.warnf("job %s: cannot purge its copy on %s, a cluster with no kubeconfig", purge.job(), purge.cluster());
            return false;
        }
        try {
            PyTorchJob copy = client.resources(PyTorchJob.class).inNamespace(purge.job().namespace()).withName(purge.job().name()).get();
            String reservationGroup = null;
            if (copy != null && purge.copyUid().equals(copy.getMetadata().getUid())) {
                Map<String, String> annotations = copy.getMetadata().getAnnotations();
                reservationGroup = annotations == null ? null : annotations.get(MemberJobs.RESERVATION);
                client.resources(PyTorchJob.class).inNamespace(purge.job().namespace()).withName(purge.job().name()).delete();
            }
            int released = releaseReservations(client, purge, reservationGroup);
            LOG.infof("job %s: purged its copy on %s (%s)%s", purge.job(), purge.cluster(), purge.reason(),
                    released == 0 ? "" : ", " + released + " reservations released");
            return true;
        } catch (KubernetesClientException e) {
            LOG.warnf("job %s: purging its copy on %s failed, asked again later: %s", purge.job(), purge.cluster(), e.getMessage());
            return false;
        }
    }

    /** The copy's reservations (by their group), or every reservation of the job when the job is deleted. */
    private static int releaseReservations(KubernetesClient client, Purge purge, String reservationGroup) {
        if (reservationGroup == null && !purge.jobDeleted()) {
            return 0;
        }
        int released = 0;
        try {
            for (Reservation reservation : client.resources(Reservation.class).withLabel(MemberJobs.FLEET_JOB_UID, purge.job().uid()).list().getItems()) {
                if (purge.jobDeleted() || reservation.getMetadata().getName().startsWith(reservationGroup + "-")) {
                    client.resources(Reservation.class).withName(reservation.getMetadata().getName()).delete();
                    released++;
                }
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            // The member serves no reservations: there are none to release.
        }
        return released;
    }
}
