package dev.muster.model.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.muster.model.resource.PodRequests;
import dev.muster.model.resource.ResourceList;

/**
 * What a job needs to run as one gang: for each replica type, the pod count and one pod's effective request.
 *
 * @param replicas by replica type, Master before Worker
 */
public record JobDemand(Map<ReplicaType, ReplicaDemand> replicas) {

    public JobDemand {
        replicas = Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
    }

    /** One replica type's part of the demand. */
    public record ReplicaDemand(int pods, ResourceList perPod) {

        public ResourceList total() {
            return perPod.times(pods);
        }
    }

    /**
     * The demand of a job; call only on a job that {@link PyTorchJobValidator} accepted.
     *
     * @throws dev.muster.model.resource.InvalidResourceException when a quantity cannot be parsed
     */
    public static JobDemand of(PyTorchJob job) {
        Map<ReplicaType, ReplicaDemand> demand = new LinkedHashMap<>();
        Map<String, ReplicaSpec> specs = job.getSpec().pytorchReplicaSpecs();
        for (ReplicaType type : ReplicaType.values()) {
            ReplicaSpec spec = specs.get(type.specName());
            if (spec != null) {
                ResourceList perPod = spec.template() == null ? ResourceList.empty() : PodRequests.of(spec.template().getSpec());
                demand.put(type, new ReplicaDemand(spec.replicaCount(), perPod));
            }
        }
        return new JobDemand(demand);
    }

    /** The sum over every pod of the job. */
    public ResourceList total() {
        ResourceList total = ResourceList.empty();
        for (ReplicaDemand replica : replicas.values()) {
            total = total.plus(replica.total());
        }
        return total;
    }

    /** How many pods the gang has. */
    public int pods() {
        return replicas.values().stream().mapToInt(ReplicaDemand::pods).sum();
    }

    /** The pod count of each replica type, e.g. {@code {MASTER=1, WORKER=2}}. */
    public Map<ReplicaType, Integer> podCounts() {
        Map<ReplicaType, Integer> counts = new LinkedHashMap<>();
        replicas.forEach((type, replica) -> counts.put(type, replica.pods()));
        return counts;
    }
}
