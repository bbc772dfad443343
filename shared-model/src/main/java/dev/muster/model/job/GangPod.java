package dev.muster.model.job;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.PodSpec;

/**
 * One pod of a job's gang, as Kubeflow's training operator will name it: {@code <job>-master-0},
 * {@code <job>-worker-<index>}. Placement plans these pods onto nodes before the operator creates them, so
 * the names must agree.
 *
 * @param rank the pod's RANK: the master first, then the workers by index
 */
public record GangPod(String name, ReplicaType type, int index, int rank, PodSpec spec) {

    /** The label the training operator puts on each pod it makes: the name of the job the pod belongs to. */
    public static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";

    /** Every pod of the job, master first; call only on a job that {@link PyTorchJobValidator} accepted. */
    public static List<GangPod> of(PyTorchJob job) {
        List<GangPod> pods = new ArrayList<>();
        int rank = 0;
        for (ReplicaType type : ReplicaType.values()) {
            ReplicaSpec replica = job.getSpec().pytorchReplicaSpecs().get(type.specName());
            if (replica == null) {
                continue;
            }
            PodSpec spec = replica.template() == null || replica.template().getSpec() == null ? new PodSpec() : replica.template().getSpec();
            for (int index = 0; index < replica.replicaCount(); index++) {
                pods.add(new GangPod(name(job.getMetadata().getName(), type, index), type, index, rank++, spec));
            }
        }
        return pods;
    }

    /** The name the operator gives a replica's pod. */
    public static String name(String job, ReplicaType type, int index) {
        return job + "-" + type.label() + "-" + index;
    }
}
