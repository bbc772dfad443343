package dev.muster.placement.core.gang;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;

/**
 * The jobs placement tracks, each at its stage (waiting for room, being reserved or created on one cluster, bound), with
 * what each needs to be placed again: its admission, the clusters it avoids after failing over from them, and how many
 * times it failed over. {@link GangPlacer}'s bookkeeping: it decides, this remembers; it also says which jobs' records
 * are to be written again ({@link #changed}), which only a job forgotten or given back notes by itself.
 */
final class TrackedJobs {

    private final Map<String, Waiting> waiting = new LinkedHashMap<>();
    private final Map<String, Attempt> attempts = new LinkedHashMap<>();
    private final Map<String, String> bound = new LinkedHashMap<>();
    private final Map<String, String> boundGroups = new LinkedHashMap<>();
    /** Each bound job by UID, for the member writes still made for it (releasing what its pods do not use). */
    private final Map<String, JobRef> boundJobs = new LinkedHashMap<>();
    /**
     * Every tracked job's admission as its JSON text, bound ones included: a job that fails over is placed again
     * from it, and the state log records it. Text, because placement holds one for every running job and a
     * manifest parsed is about 13 KiB of objects, five times its text.
     */
    private final Map<String, String> admissions = new LinkedHashMap<>();
    private final Map<String, Map<String, Instant>> exclusions = new LinkedHashMap<>();
    private final Map<String, Integer> generations = new LinkedHashMap<>();
    /** The jobs whose state changed since the last {@link #drainChanged()}. */
    private final Set<String> changed = new LinkedHashSet<>();

    /** Whether the job is waiting, being placed or bound. */
    boolean tracks(String uid) {
        return bound.containsKey(uid) || attempts.containsKey(uid) || waiting.containsKey(uid);
    }

    void changed(String uid) {
        changed.add(uid);
    }

    /** The jobs whose state changed since the last call. */
    Set<String> drainChanged() {
        Set<String> drained = new LinkedHashSet<>(changed);
        changed.clear();
        return drained;
    }

    Waiting waiting(String uid) {
        return waiting.get(uid);
    }

    /** The waiting jobs, as they stand now: the caller may place them meanwhile. */
    List<Waiting> waitingJobs() {
        return List.copyOf(waiting.values());
    }

    void waits(Waiting job) {
        waiting.put(job.uid(), job);
    }

    void stopsWaiting(String uid) {
        waiting.remove(uid);
    }

    Attempt attempt(String uid) {
        return attempts.get(uid);
    }

    /** The jobs being placed, as they stand now: the caller may move them on meanwhile. */
    List<Attempt> attempts() {
        return List.copyOf(attempts.values());
    }

    void attempts(Attempt attempt) {
        attempts.put(attempt.uid(), attempt);
    }

    /** The job's attempt ends, whatever came of it; the attempt it was, or null. */
    Attempt attemptEnds(String uid) {
        return attempts.remove(uid);
    }

    boolean isBound(String uid) {
        return bound.containsKey(uid);
    }

    String boundTo(String uid) {
        return bound.get(uid);
    }

    String boundGroup(String uid) {
        return boundGroups.get(uid);
    }

    JobRef boundJob(String uid) {
        return boundJobs.get(uid);
    }

    /** The cluster each bound job is on. */
    Map<String, String> boundClusters() {
        return Map.copyOf(bound);
    }

    /** @param job the job bound, or null when only its UID is known (it is then named by its admission, if any) */
    void bind(String uid, String cluster, String reservationGroup, JobRef job) {
        bound.put(uid, cluster);
        boundGroups.put(uid, reservationGroup);
        if (job != null) {
            boundJobs.put(uid, job);
        }
    }

    /** The job leaves the cluster it was bound to (it fails over): it is tracked on, to be placed again. */
    void unbind(String uid) {
        bound.remove(uid);
        boundGroups.remove(uid);
        boundJobs.remove(uid);
    }

    String admission(String uid) {
        return admissions.get(uid);
    }

    void admitted(String uid, String admissionJson) {
        admissions.put(uid, admissionJson);
    }

    /** The clusters the job avoids, and until when. */
    Map<String, Instant> exclusions(String uid) {
        return exclusions.getOrDefault(uid, Map.of());
    }

    /** The job failed over from the cluster: it avoids it until then, and its next placement is a new generation. */
    void failedOver(String uid, String cluster, Instant avoidedUntil) {
        exclusions.computeIfAbsent(uid, key -> new TreeMap<>()).put(cluster, avoidedUntil);
        generations.merge(uid, 1, Integer::sum);
    }

    int generation(String uid) {
        return generations.getOrDefault(uid, 0);
    }

    /** Whether the job failed over from this cluster: a copy of it found there is the one it left. */
    boolean leftByFailover(String uid, String cluster) {
        return exclusions(uid).containsKey(cluster);
    }

    /** Told apart from the same step of an earlier placement of the job (before a failover). */
    String step(String uid, String step) {
        int generation = generation(uid);
        return generation == 0 ? step : step + " after failover " + generation;
    }

    /** Whether the job is bound to, or being created on, another cluster than the one a copy of it ended on. */
    boolean endedElsewhere(String uid, String cluster) {
        if (cluster == null) {
            return false;
        }
        String boundTo = bound.get(uid);
        if (boundTo != null) {
            return !boundTo.equals(cluster);
        }
        Attempt attempt = attempts.get(uid);
        return attempt != null && !attempt.cluster().equals(cluster);
    }

    /** Whether the reservation on the cluster is one the job's attempt asked for, or one of the group it is bound with there. */
    boolean usesReservation(String uid, String cluster, String reservation) {
        Attempt attempt = attempts.get(uid);
        String group = boundGroups.get(uid);
        return attempt != null && attempt.reserved(cluster, reservation)
                || cluster.equals(bound.get(uid)) && group != null && reservation.startsWith(group + "-");
    }

    /** The job a UID names, as far as placement knows it; a placeholder for reservations of jobs it no longer tracks. */
    JobRef jobRef(String uid) {
        Attempt attempt = attempts.get(uid);
        if (attempt != null) {
            return attempt.admitted().job();
        }
        Waiting job = waiting.get(uid);
        // Named by its UID, which the reservations' label carries, so that an operator can tell whose they were.
        return job != null ? job.admitted().job() : new JobRef("unknown", "uid-" + uid, uid);
    }

    /** The job is given back to its queue: nothing of it is kept. */
    void givenBack(String uid) {
        waiting.remove(uid);
        admissions.remove(uid);
        exclusions.remove(uid);
        generations.remove(uid);
        changed.add(uid);
    }

    /** The job is no longer placement's to place: everything of it goes; the attempt it was in, if any, is returned. */
    Attempt forget(String uid) {
        givenBack(uid);
        bound.remove(uid);
        boundGroups.remove(uid);
        boundJobs.remove(uid);
        return attempts.remove(uid);
    }

    /** The job's record while it waits, is being placed or is bound; null otherwise. */
    PlacementRecord record(String uid) {
        String admission = admissions.get(uid);
        Map<String, Instant> excluded = exclusions(uid);
        int generation = generation(uid);
        if (bound.containsKey(uid)) {
            return new PlacementRecord(PlacementRecord.Stage.BOUND, admission, bound.get(uid), boundGroups.get(uid), null, null, null, null,
                    null, 0, null, null, excluded, generation, null, null, null);
        }
        Attempt attempt = attempts.get(uid);
        if (attempt != null) {
            return new PlacementRecord(attempt.reserving() ? PlacementRecord.Stage.RESERVING : PlacementRecord.Stage.CREATING, admission,
                    attempt.cluster(), attempt.reservationGroup(), attempt.reservations(), attempt.plan(), attempt.deadline(), attempt.failed(),
                    null, 0, null, null, excluded, generation, null, null, attempt.domain());
        }
        Waiting job = waiting.get(uid);
        if (job != null) {
            return new PlacementRecord(PlacementRecord.Stage.WAITING, admission, null, null, null, null, null, null, job.since(), job.tries(),
                    job.notBefore(), job.reasons(), excluded, generation, null, null, null);
        }
        return null;
    }

    /** What a record says of the job's admission, the clusters it avoids and its generation, taken over from a previous owner. */
    void restore(String uid, PlacementRecord record) {
        if (record.admitted() != null) {
            admissions.put(uid, record.admitted());
        }
        if (!record.excludedUntil().isEmpty()) {
            exclusions.put(uid, new TreeMap<>(record.excludedUntil()));
        }
        if (record.generation() > 0) {
            generations.put(uid, record.generation());
        }
    }

    /** A job restored waiting, as its record says. */
    void restoreWaiting(String uid, JobEvent admitted, PlacementRecord record) {
        waiting.put(uid, new Waiting(admitted, record.since(), record.tries(), record.notBefore(), record.reasons()));
    }

    /** A job restored being placed: its attempt, as its record says. */
    void restoreAttempt(Attempt attempt) {
        attempts.put(attempt.uid(), attempt);
    }
}
