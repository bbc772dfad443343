package dev.muster.gangfit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.muster.model.resource.ResourceList;

/**
 * The GPU pod shapes placement expects to come, each with its share of such pods: what a node's fragmentation is
 * measured against. A node's free GPUs are a fragment for a shape that does not fit on it (too few GPUs free, or too
 * little CPU or memory beside them), and its expected fragmentation is its free GPUs times the share of the shapes
 * that do not fit. This is the measure of Weng et al., "Beware of Fragmentation" (USENIX ATC '23), for whole GPUs;
 * placing a pod where it raises the measure least is their fragmentation gradient descent.
 */
public final class Workload {

    /** No shape known: every node's fragmentation is nought, so packing falls back to best fit. */
    public static final Workload NONE = new Workload(new long[0][], new double[0]);

    private final long[][] shapes;
    private final double[] shares;

    private Workload(long[][] shapes, double[] shares) {
        this.shapes = shapes;
        this.shares = shares;
    }

    /**
     * The shapes with how many pods of each were seen; shapes that ask for no GPU, or for a resource packing does not
     * count in fixed point, are left out.
     */
    public static Workload of(Map<ResourceList, Long> podsByShape) {
        List<Map.Entry<long[], Long>> kept = new ArrayList<>();
        long total = 0;
        for (Map.Entry<ResourceList, Long> shape : podsByShape.entrySet()) {
            long[] need = FixedPoint.ofRequest(shape.getKey());
            if (need != null && need[FixedPoint.GPU] > 0 && shape.getValue() > 0) {
                kept.add(Map.entry(need, shape.getValue()));
                total += shape.getValue();
            }
        }
        if (kept.isEmpty()) {
            return NONE;
        }
        kept.sort(Comparator.comparing((Map.Entry<long[], Long> shape) -> shape.getValue()).reversed());
        long[][] shapes = new long[kept.size()][];
        double[] shares = new double[kept.size()];
        for (int i = 0; i < shapes.length; i++) {
            shapes[i] = kept.get(i).getKey();
            shares[i] = (double) kept.get(i).getValue() / total;
        }
        return new Workload(shapes, shares);
    }

    public boolean isEmpty() {
        return shapes.length == 0;
    }

    /** How many shapes it has. */
    public int shapes() {
        return shapes.length;
    }

    /** The expected free GPUs (in thousandths) of a node with this much free that the next GPU pod cannot use. */
    double fragmentation(long[] free) {
        long gpus = free[FixedPoint.GPU];
        if (gpus <= 0) {
            return 0;
        }
        double unusable = 0;
        for (int i = 0; i < shapes.length; i++) {
            if (!FixedPoint.covers(free, shapes[i])) {
                unusable += shares[i];
            }
        }
        return gpus * unusable;
    }

    /**
     * How much a pod needing {@code need} raises the node's fragmentation (in thousandths of a GPU): negative when it
     * takes GPUs that would have been fragments anyway, positive when it leaves GPUs no expected pod fits beside.
     */
    double increase(long[] free, long[] need) {
        long gpusBefore = free[FixedPoint.GPU];
        long gpusAfter = gpusBefore - need[FixedPoint.GPU];
        if (gpusBefore <= 0) {
            return 0;
        }
        // Both measures in one pass, without building the node's free capacity after the pod.
        double unusableBefore = 0;
        double unusableAfter = 0;
        for (int i = 0; i < shapes.length; i++) {
            if (!FixedPoint.covers(free, shapes[i])) {
                unusableBefore += shares[i];
                unusableAfter += shares[i];
            } else if (!coversAfter(free, need, shapes[i])) {
                unusableAfter += shares[i];
            }
        }
        return (gpusAfter <= 0 ? 0 : gpusAfter * unusableAfter) - gpusBefore * unusableBefore;
    }

    /** Whether {@code free} less {@code need} covers every positive amount of {@code shape}. */
    private static boolean coversAfter(long[] free, long[] need, long[] shape) {
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] > 0 && shape[i] > free[i] - need[i]) {
                return false;
            }
        }
        return true;
    }
}
