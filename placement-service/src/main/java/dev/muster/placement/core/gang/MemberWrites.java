package dev.muster.placement.core.gang;

import java.time.Duration;
import java.util.List;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobDependencies;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyDomain;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.ReservationOwner;
import dev.muster.model.reservation.ReservationSpec;
import dev.muster.model.time.GoDurations;
import dev.muster.placement.core.binding.MemberCommand;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/** What placement writes on a member for a job: the member copy, the reservations that hold its gang's nodes, and their names. */
final class MemberWrites {

    private MemberWrites() {
    }

    /** The member copy of the job's placement {@code generation}, its pods confined to the topology domain, if the placement chose one. */
    static MemberCommand createJob(JobEvent admittedEvent, String cluster, String reservationGroup, TopologyDomain domain, int generation) {
        JobAdmitted admitted = (JobAdmitted) admittedEvent.data();
        boolean propagate = admitted.policy() != null && admitted.policy().getSpec() != null
                && Boolean.TRUE.equals(admitted.policy().getSpec().propagateDeps());
        PyTorchJob copy = MemberJobs.forMember(admitted.job(), admittedEvent.job().uid(), reservationGroup, generation,
                FailoverPolicy.of(admitted.policy()), admittedEvent.time());
        return new MemberCommand.CreateJob(cluster, admittedEvent.job(), domain == null ? copy : domain.confine(copy),
                propagate ? JobDependencies.of(admitted.job()) : List.of());
    }

    /** The reservation that holds the pod's place on the node, owned by that pod, gone after {@code ttl} unless used. */
    static Reservation reservation(String name, JobRef job, GangPod pod, String node, Duration ttl) {
        PodSpec spec = new PodSpecBuilder(pod.spec()).withNodeName(node).build();
        PodTemplateSpec template = new PodTemplateSpec();
        template.setSpec(spec);
        Reservation reservation = new Reservation();
        reservation.setMetadata(new ObjectMetaBuilder().withName(name)
                .addToLabels(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER).addToLabels(MemberJobs.FLEET_JOB_UID, job.uid()).build());
        reservation.setSpec(new ReservationSpec(template, List.of(ReservationOwner.pod(job.namespace(), pod.name())), GoDurations.format(ttl)));
        return reservation;
    }

    /** The name of the reservation of one pod of a group: the group, the pod's replica type and its index. */
    static String reservationName(String group, GangPod pod) {
        return group + "-" + pod.type().label() + "-" + pod.index();
    }

    /**
     * Reservation names start with the job's name, a stable part of its UID and which placement of the job they are for
     * (its generation, and how many clusters it gave up on before): a retry of one attempt finds its own, and no later
     * attempt takes an earlier one's reservations, pinned to other nodes, for its own.
     */
    static String reservationGroup(JobRef job, int generation, int attempt) {
        String uid = job.uid().replaceAll("[^a-z0-9]", "");
        return job.name() + "-" + uid.substring(0, Math.min(8, uid.length())) + "-" + generation + "-" + attempt;
    }

    /** The group a reservation's name belongs to: all of it but its last two parts, the replica type and index. */
    static String groupOf(String reservationName) {
        int index = reservationName.lastIndexOf('-');
        int type = index <= 0 ? -1 : reservationName.lastIndexOf('-', index - 1);
        return type <= 0 ? reservationName : reservationName.substring(0, type);
    }
}
