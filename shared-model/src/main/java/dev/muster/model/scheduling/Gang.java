package dev.muster.model.scheduling;

import java.util.Comparator;
import java.util.List;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * A gang's pods as packing takes them: largest first (GPU, then CPU, then memory, then name), with what they
 * need in all. Worked out once per decision, then packed against every cluster.
 */
public record Gang(List<PodNeeds> largestFirst, ResourceList total) {

    static final Comparator<PodNeeds> LARGEST_FIRST = Comparator
            .comparing((PodNeeds pod) -> pod.request().amount(ResourceNames.GPU)).reversed()
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.CPU), Comparator.reverseOrder())
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.MEMORY), Comparator.reverseOrder())
            .thenComparing(PodNeeds::name);

    public Gang {
        largestFirst = List.copyOf(largestFirst);
    }

    public static Gang of(List<PodNeeds> pods) {
        return new Gang(pods.stream().sorted(LARGEST_FIRST).toList(),
                pods.stream().map(PodNeeds::request).reduce(ResourceList.empty(), ResourceList::plus));
    }
}
