package dev.muster.bench.quality;

import java.util.List;

/**
 * What one member cluster really has free, node by node, and its own scheduler's all-or-nothing gang fit
 * (each worker to the node with the least free GPUs that holds it, then the least free CPU), as a coscheduling
 * scheduler binds a gang or a reservation. Muster never reads this directly: it sees the member through its
 * inventory, which lags.
 */
final class MemberCluster {

    private final String name;
    private final String[] nodeNames;
    private final long[] freeCpu;
    private final long[] freeMemory;
    private final int[] freeGpu;
    private final java.util.Map<String, Integer> positions = new java.util.HashMap<>();
    private final long gpus;
    private long usedGpus;

    MemberCluster(String name, List<TraceInputs.Node> nodes) {
        this.name = name;
        int size = nodes.size();
        nodeNames = new String[size];
        freeCpu = new long[size];
        freeMemory = new long[size];
        freeGpu = new int[size];
        long total = 0;
        for (int i = 0; i < size; i++) {
            TraceInputs.Node node = nodes.get(i);
            nodeNames[i] = node.name();
            positions.put(node.name(), i);
            freeCpu[i] = node.cpuMilli();
            freeMemory[i] = node.memoryMib();
            freeGpu[i] = node.gpu();
            total += node.gpu();
        }
        gpus = total;
    }

    String name() {
        return name;
    }

    String nodeName(int node) {
        return nodeNames[node];
    }

    long gpus() {
        return gpus;
    }

    long usedGpus() {
        return usedGpus;
    }

    /**
     * The free GPUs of the nodes where at least one pod of these shapes (each asking for a GPU or more) would fit now:
     * what waiting jobs of those shapes could use, gang or no gang. The free GPUs of the other nodes no such pod can use.
     */
    long freeGpusUsableBy(java.util.Collection<SimulatedJob.PodShape> shapes) {
        long usable = 0;
        for (int node = 0; node < freeGpu.length; node++) {
            if (freeGpu[node] <= 0) {
                continue;
            }
            for (SimulatedJob.PodShape shape : shapes) {
                if (shape.gpu() > 0 && freeGpu[node] >= shape.gpu() && freeCpu[node] >= shape.cpuMilli() && freeMemory[node] >= shape.memoryMib()) {
                    usable += freeGpu[node];
                    break;
                }
            }
        }
        return usable;
    }

    /**
     * Free GPUs on nodes where none of the shapes fits but one would by its GPUs alone: stranded by the CPU or memory
     * other pods took, rather than left in pieces too small for any shape.
     */
    long freeGpusStrandedFor(java.util.Collection<SimulatedJob.PodShape> shapes) {
        long stranded = 0;
        for (int node = 0; node < freeGpu.length; node++) {
            if (freeGpu[node] <= 0) {
                continue;
            }
            boolean byGpusAlone = false;
            boolean fits = false;
            for (SimulatedJob.PodShape shape : shapes) {
                if (shape.gpu() > 0 && freeGpu[node] >= shape.gpu()) {
                    byGpusAlone = true;
                    if (freeCpu[node] >= shape.cpuMilli() && freeMemory[node] >= shape.memoryMib()) {
                        fits = true;
                        break;
                    }
                }
            }
            if (byGpusAlone && !fits) {
                stranded += freeGpu[node];
            }
        }
        return stranded;
    }

    /** The node of each worker if the whole gang fits now, taking the capacity; null (and nothing taken) if not. */
    int[] bind(SimulatedJob.PodShape worker, int workers) {
        int[] placed = new int[workers];
        int done = 0;
        for (; done < workers; done++) {
            int best = -1;
            for (int node = 0; node < freeGpu.length; node++) {
                if (freeGpu[node] >= worker.gpu() && freeCpu[node] >= worker.cpuMilli() && freeMemory[node] >= worker.memoryMib()
                        && (best < 0 || freeGpu[node] < freeGpu[best] || freeGpu[node] == freeGpu[best] && freeCpu[node] < freeCpu[best])) {
                    best = node;
                }
            }
            if (best < 0) {
                break;
            }
            take(best, worker, 1);
            placed[done] = best;
        }
        if (done < workers) {
            for (int i = 0; i < done; i++) {
                take(placed[i], worker, -1);
            }
            return null;
        }
        return placed;
    }

    /**
     * The nodes, by name, if each worker fits the node planned for it now (a reservation pinned to its node), taking the
     * capacity; null (and nothing taken) if one does not.
     */
    int[] bindAt(SimulatedJob.PodShape worker, List<String> planned) {
        int[] placed = new int[planned.size()];
        int done = 0;
        for (; done < placed.length; done++) {
            Integer node = positions.get(planned.get(done));
            if (node == null || freeGpu[node] < worker.gpu() || freeCpu[node] < worker.cpuMilli() || freeMemory[node] < worker.memoryMib()) {
                break;
            }
            take(node, worker, 1);
            placed[done] = node;
        }
        if (done < placed.length) {
            for (int i = 0; i < done; i++) {
                take(placed[i], worker, -1);
            }
            return null;
        }
        return placed;
    }

    /** Gives a bound gang's capacity back. */
    void release(SimulatedJob.PodShape worker, int[] nodes) {
        for (int node : nodes) {
            take(node, worker, -1);
        }
    }

    private void take(int node, SimulatedJob.PodShape worker, int sign) {
        freeCpu[node] -= sign * worker.cpuMilli();
        freeMemory[node] -= sign * worker.memoryMib();
        freeGpu[node] -= sign * worker.gpu();
        usedGpus += (long) sign * worker.gpu();
    }
}
