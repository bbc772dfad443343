package dev.muster.model.event;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.muster.model.job.ReplicaType;

/**
 * The whole gang was created on one member cluster.
 *
 * @param reservation the reservation the pods consume, or null
 * @param replicas    the pod count of each replica type
 * @param message     the fleet event's text, in the vendor's exact shape (see {@link #bindingMessage})
 */
public record JobBound(String cluster, String reservation, Map<ReplicaType, Integer> replicas, String message)
        implements JobEventData {

    public JobBound {
        replicas = Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
    }

    public static JobBound of(String cluster, String reservation, Map<ReplicaType, Integer> replicas) {
        return new JobBound(cluster, reservation, replicas, bindingMessage(cluster, replicas));
    }

    /**
     * The message of the fleet's {@code ScheduleBindingSucceed} event, e.g.
     * {@code Binding has been scheduled successfully. Result: {cluster-a:0,[{master 1} {worker 2}]}}.
     */
    public static String bindingMessage(String cluster, Map<ReplicaType, Integer> replicas) {
        String counts = replicas.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(entry -> "{" + entry.getKey().label() + " " + entry.getValue() + "}")
                .collect(Collectors.joining(" "));
        return "Binding has been scheduled successfully. Result: {" + cluster + ":0,[" + counts + "]}";
    }

    @Override
    public String summary() {
        return message;
    }
}
