package dev.muster.model.resource;

import java.math.BigDecimal;
import java.util.List;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * The effective resource request of a pod, computed the way the Kubernetes scheduler does.
 * <p>
 * A container's request for a resource is its request, or its limit where only a limit is set (GPUs
 * are usually given as limits only). A pod needs the larger of: the sum of its regular and sidecar
 * containers, and the peak of any one init container together with the sidecars started before it.
 * Pod overhead is added on top.
 */
public final class PodRequests {

    private static final String RESTART_ALWAYS = "Always";

    private PodRequests() {
    }

    /**
     * @throws InvalidResourceException when a container names a quantity that cannot be parsed
     */
    public static ResourceList of(PodSpec pod) {
        if (pod == null) {
            return ResourceList.empty();
        }
        ResourceList running = sum(pod.getContainers());
        ResourceList sidecars = ResourceList.empty();
        ResourceList initPeak = ResourceList.empty();
        for (Container init : nonNull(pod.getInitContainers())) {
            ResourceList request = of(init);
            if (RESTART_ALWAYS.equals(init.getRestartPolicy())) {
                // A sidecar keeps running beside the regular containers and every later init container.
                running = running.plus(request);
                sidecars = sidecars.plus(request);
                initPeak = initPeak.max(sidecars);
            } else {
                initPeak = initPeak.max(request.plus(sidecars));
            }
        }
        return running.max(initPeak).plus(ResourceList.fromQuantities(pod.getOverhead()));
    }

    /** What the pod takes from the node it runs on: its effective request plus one {@code pods} slot. */
    public static ResourceList onNode(PodSpec pod) {
        return of(pod).with(ResourceNames.PODS, BigDecimal.ONE);
    }

    /** A container's effective request: each resource's request, else its limit. */
    public static ResourceList of(Container container) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return ResourceList.empty();
        }
        ResourceList limits = ResourceList.fromQuantities(resources.getLimits());
        ResourceList requests = ResourceList.fromQuantities(resources.getRequests());
        ResourceList effective = requests;
        for (String name : limits.names()) {
            if (!requests.names(name)) {
                effective = effective.with(name, limits.amount(name));
            }
        }
        return effective;
    }

    private static ResourceList sum(List<Container> containers) {
        ResourceList total = ResourceList.empty();
        for (Container container : nonNull(containers)) {
            total = total.plus(of(container));
        }
        return total;
    }

    private static List<Container> nonNull(List<Container> containers) {
        return containers == null ? List.of() : containers;
    }
}
