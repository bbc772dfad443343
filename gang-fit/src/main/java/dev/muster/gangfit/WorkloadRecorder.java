package dev.muster.gangfit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * The shapes of the last GPU pods placement was asked to place, as the {@link Workload} fragmentation is measured
 * against: a window of the most recent pods, its most frequent shapes kept (a rare shape moves the measure little and
 * costs every node's score as much as a common one). Not thread-safe: its owner records and reads under one lock.
 */
public final class WorkloadRecorder {

    private final int window;
    private final int shapesKept;
    private final int refreshEvery;
    private final Deque<ResourceList> recent = new ArrayDeque<>();
    private final Map<ResourceList, Long> counts = new HashMap<>();
    private Workload workload = Workload.NONE;
    private int sinceRefresh;

    /**
     * @param window       how many of the latest GPU pods count
     * @param shapesKept   how many of their most frequent shapes the workload keeps
     * @param refreshEvery how many pods are recorded before the workload is worked out again
     */
    public WorkloadRecorder(int window, int shapesKept, int refreshEvery) {
        if (window < 1 || shapesKept < 1 || refreshEvery < 1) {
            throw new IllegalArgumentException("window, shapes kept and refresh interval must be positive");
        }
        this.window = window;
        this.shapesKept = shapesKept;
        this.refreshEvery = refreshEvery;
    }

    /** A recorder of the last 1,000 GPU pods' 32 most frequent shapes, worked out again every 50 pods. */
    public static WorkloadRecorder standard() {
        return new WorkloadRecorder(1_000, 32, 50);
    }

    /** Counts one pod of a gang placement was asked to place; pods that ask for no GPU are not counted. */
    public void record(ResourceList request) {
        if (request.amount(ResourceNames.GPU).signum() <= 0) {
            return;
        }
        recent.addLast(request);
        counts.merge(request, 1L, Long::sum);
        if (recent.size() > window) {
            counts.computeIfPresent(recent.removeFirst(), (shape, count) -> count == 1 ? null : count - 1);
        }
        if (++sinceRefresh >= refreshEvery || workload.isEmpty()) {
            refresh();
        }
    }

    /** The workload as last worked out. */
    public Workload workload() {
        return workload;
    }

    private void refresh() {
        sinceRefresh = 0;
        Map<ResourceList, Long> kept = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<ResourceList, Long>comparingByValue().reversed()).limit(shapesKept)
                .forEach(shape -> kept.put(shape.getKey(), shape.getValue()));
        workload = Workload.of(kept);
    }
}
