package dev.muster.gangfit;

import java.util.List;
import java.util.Map;

import dev.muster.model.json.MusterJson;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Taint;

/** Nodes and pods for scheduling tests, from short YAML. */
final class SchedulingFixtures {

    private SchedulingFixtures() {
    }

    static PodNeeds pod(String name, String specYaml) {
        try {
            return PodNeeds.of(name, MusterJson.yaml().readValue(specYaml, PodSpec.class));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static PodNeeds gpuPod(String name, int gpus) {
        return pod(name, "{containers: [{name: pytorch, image: i, resources: {requests: {cpu: 4}, limits: {nvidia.com/gpu: %d}}}]}"
                .formatted(gpus));
    }

    static NodeState node(String name, int cpu, int gpu) {
        ResourceList allocatable = ResourceList.parse(Map.of("cpu", String.valueOf(cpu), "memory", "256Gi",
                "nvidia.com/gpu", String.valueOf(gpu), "pods", "110"));
        return new NodeState(name, Map.of(), List.of(), allocatable, allocatable, true, false);
    }

    static NodeState labelled(NodeState node, Map<String, String> labels) {
        return new NodeState(node.name(), labels, node.taints(), node.allocatable(), node.free(), node.ready(), node.unschedulable());
    }

    static NodeState tainted(NodeState node, String key, String value, String effect) {
        Taint taint = new Taint(effect, key, null, value);
        return new NodeState(node.name(), node.labels(), List.of(taint), node.allocatable(), node.free(), node.ready(), node.unschedulable());
    }
}
