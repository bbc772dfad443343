package dev.muster.gangfit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * A gang's pods as packing takes them: largest first (GPU, then CPU, then memory, then name), with what they
 * need in all. Worked out once per decision, then packed against every cluster.
 */
public record Gang(List<PodNeeds> largestFirst, ResourceList total, List<long[]> fixedNeeds) {

    static final Comparator<PodNeeds> LARGEST_FIRST = Comparator
            .comparing((PodNeeds pod) -> pod.request().amount(ResourceNames.GPU)).reversed()
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.CPU), Comparator.reverseOrder())
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.MEMORY), Comparator.reverseOrder())
            .thenComparing(PodNeeds::name);

    /**
     * @param fixedNeeds each pod's request in fixed point, in the order of {@code largestFirst}; null when one
     *                   has no fixed-point form (packing then keeps to exact decimals)
     */
    public Gang {
        largestFirst = List.copyOf(largestFirst);
    }

    /** What the gang needs in all, in fixed point; null when it has no fixed-point form. */
    long[] fixedTotal() {
        return fixedNeeds == null ? null : FixedPoint.of(total);
    }

    public static Gang of(List<PodNeeds> pods) {
        List<PodNeeds> sorted = pods.stream().sorted(LARGEST_FIRST).toList();
        List<long[]> fixed = new ArrayList<>(sorted.size());
        for (PodNeeds pod : sorted) {
            long[] need = FixedPoint.ofRequest(pod.request());
            if (need == null) {
                fixed = null;
                break;
            }
            fixed.add(need);
        }
        return new Gang(sorted, sorted.stream().map(PodNeeds::request).reduce(ResourceList.empty(), ResourceList::plus),
                fixed == null ? null : Collections.unmodifiableList(fixed));
    }
}
