package dev.muster.bench.quality;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

import dev.muster.gangfit.Workload;
import dev.muster.model.job.PyTorchJob;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.shard.ShardRing;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * Placement split over shards as {@code docs/placement-sharding.md} designs it: each shard plans over the members
 * {@link ShardRing} gives it, and a gang starts at its home shard and is offered round the ring until a shard's members fit it.
 * The shards of one round decide at the same time, each on its own thread, as separate instances would; the next round
 * takes the gangs that fit none of their shard's members to the next shard. Counts each shard's decisions and CPU time,
 * the offers, and the wall time the rounds took.
 *
 * @param <J> the simulation's handle on a job
 */
final class ShardedPlanning<J> implements AutoCloseable {

    /** A gang to place: its spec, the members it avoids until when, and the simulation's handle. */
    record Attempt<J>(J job, String uid, PyTorchJob spec, Map<String, Instant> excludedUntil) {
    }

    /** Where an attempt ended: the member that fits it, or null when no shard's members do. */
    record Outcome<J>(Attempt<J> attempt, ClusterFit.Fits fits) {

        boolean placed() {
            return fits != null;
        }
    }

    /** What the shards did over a run. */
    record Counts(int shards, long[] decisionsByShard, long[] cpuNanosByShard, long[] placedByShard, long placedAtHome, long offers, long wallNanos,
                  int[] membersByShard) {

        long decisions() {
            return sum(decisionsByShard);
        }

        long cpuNanos() {
            return sum(cpuNanosByShard);
        }

        long placed() {
            return sum(placedByShard);
        }

        private static long sum(long[] values) {
            long sum = 0;
            for (long value : values) {
                sum += value;
            }
            return sum;
        }
    }

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final ShardRing ring;
    private final List<List<ClusterInventory>> membersByShard = new ArrayList<>();
    private final ExecutorService threads;
    private final long[] decisions;
    private final long[] cpuNanos;
    private final long[] placed;
    private long placedAtHome;
    private long offers;
    private long wallNanos;

    /** The members split over {@code ring}'s shards; all but one shard of a round decide on threads of their own. */
    ShardedPlanning(ShardRing ring, Collection<ClusterInventory> members) {
        this.ring = ring;
        for (int shard = 0; shard < ring.shards(); shard++) {
            membersByShard.add(new ArrayList<>());
        }
        members.forEach(member -> membersByShard.get(ring.ownerOf(member.cluster())).add(member));
        this.threads = ring.shards() == 1 ? null : Executors.newFixedThreadPool(ring.shards() - 1, runnable -> {
            Thread thread = new Thread(runnable, "shard");
            thread.setDaemon(true);
            return thread;
        });
        this.decisions = new long[ring.shards()];
        this.cpuNanos = new long[ring.shards()];
        this.placed = new long[ring.shards()];
    }

    /**
     * Places the gangs, each tried first at its home shard, then round the ring; {@code promise} is called on the deciding
     * shard's thread for each gang it places, before that shard decides its next gang, and must touch that member only.
     * Gangs keep their order within a shard.
     */
    List<Outcome<J>> place(List<Attempt<J>> attempts, Instant now, FitMode mode, TopologyLevels levels, Workload workload,
                           BiConsumer<Attempt<J>, ClusterFit.Fits> promise) {
        long wallBefore = System.nanoTime();
        List<Outcome<J>> outcomes = new ArrayList<>(attempts.size());
        List<List<Attempt<J>>> round = emptyRound();
        attempts.forEach(attempt -> round.get(ring.homeOf(attempt.uid())).add(attempt));
        // Within one call capacity only shrinks, so a gang that fit none of a shard's members rules out every later one of its shape there.
        List<Set<PyTorchJob>> fitNowhere = new ArrayList<>();
        for (int shard = 0; shard < ring.shards(); shard++) {
            fitNowhere.add(new HashSet<>());
        }
        for (int offer = 0; offer < ring.shards() && round.stream().anyMatch(gangs -> !gangs.isEmpty()); offer++) {
            List<List<Attempt<J>>> unplaced = decideRound(round, fitNowhere, now, mode, levels, workload, promise, offer, outcomes);
            round.clear();
            for (int shard = 0; shard < ring.shards(); shard++) {
                round.add(unplaced.get((shard + ring.shards() - 1) % ring.shards()));
            }
            if (offer + 1 < ring.shards()) {
                offers += round.stream().mapToLong(List::size).sum();
            }
        }
        round.forEach(left -> left.forEach(attempt -> outcomes.add(new Outcome<>(attempt, null))));
        wallNanos += System.nanoTime() - wallBefore;
        return outcomes;
    }

    /** Each shard's gangs decided on at once; what each shard could not place, by shard. */
    private List<List<Attempt<J>>> decideRound(List<List<Attempt<J>>> round, List<Set<PyTorchJob>> fitNowhere, Instant now, FitMode mode,
                                               TopologyLevels levels, Workload workload, BiConsumer<Attempt<J>, ClusterFit.Fits> promise, int offer,
                                               List<Outcome<J>> outcomes) {
        List<List<Outcome<J>>> decided = new ArrayList<>();
        List<Future<List<Outcome<J>>>> running = new ArrayList<>();
        int onThisThread = -1;
        for (int shard = 0; shard < ring.shards(); shard++) {
            decided.add(List.of());
            running.add(null);
            if (round.get(shard).isEmpty()) {
                continue;
            }
            if (onThisThread < 0) {
                onThisThread = shard;
            } else {
                int of = shard;
                running.set(shard, threads.submit(() -> decide(of, round.get(of), fitNowhere.get(of), now, mode, levels, workload, promise)));
            }
        }
        if (onThisThread >= 0) {
            decided.set(onThisThread, decide(onThisThread, round.get(onThisThread), fitNowhere.get(onThisThread), now, mode, levels, workload,
                    promise));
        }
        List<List<Attempt<J>>> unplaced = emptyRound();
        for (int shard = 0; shard < ring.shards(); shard++) {
            List<Outcome<J>> ofShard = running.get(shard) == null ? decided.get(shard) : join(running.get(shard));
            for (Outcome<J> outcome : ofShard) {
                if (outcome.placed()) {
                    outcomes.add(outcome);
                    placed[shard]++;
                    if (offer == 0) {
                        placedAtHome++;
                    }
                } else {
                    unplaced.get(shard).add(outcome.attempt());
                }
            }
        }
        return unplaced;
    }

    private List<Outcome<J>> decide(int shard, List<Attempt<J>> attempts, Set<PyTorchJob> fitNowhere, Instant now, FitMode mode, TopologyLevels levels,
                                    Workload workload, BiConsumer<Attempt<J>, ClusterFit.Fits> promise) {
        long cpuBefore = CPU.getCurrentThreadCpuTime();
        List<Outcome<J>> outcomes = new ArrayList<>(attempts.size());
        List<ClusterInventory> members = membersByShard.get(shard);
        for (Attempt<J> attempt : attempts) {
            boolean unrestricted = attempt.excludedUntil().values().stream().noneMatch(until -> until.isAfter(now));
            if (unrestricted && fitNowhere.contains(attempt.spec())) {
                outcomes.add(new Outcome<>(attempt, null));
                continue;
            }
            decisions[shard]++;
            GangPlanner.Options options = GangPlanner.choose(attempt.spec(), null, members, attempt.excludedUntil(), now, cluster -> mode, levels,
                    workload);
            ClusterFit.Fits fits = options.best().orElse(null);
            if (fits != null) {
                promise.accept(attempt, fits);
            } else if (unrestricted) {
                fitNowhere.add(attempt.spec());
            }
            outcomes.add(new Outcome<>(attempt, fits));
        }
        cpuNanos[shard] += CPU.getCurrentThreadCpuTime() - cpuBefore;
        return outcomes;
    }

    private List<List<Attempt<J>>> emptyRound() {
        List<List<Attempt<J>>> round = new ArrayList<>();
        for (int shard = 0; shard < ring.shards(); shard++) {
            round.add(new ArrayList<>());
        }
        return round;
    }

    private static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a shard decided", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a shard failed to decide", e.getCause());
        }
    }

    Counts counts() {
        int[] members = membersByShard.stream().mapToInt(List::size).toArray();
        return new Counts(ring.shards(), decisions.clone(), cpuNanos.clone(), placed.clone(), placedAtHome, offers, wallNanos, members);
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}
