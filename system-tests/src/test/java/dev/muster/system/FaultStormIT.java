package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.muster.local.MusterService;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceNames;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * A seeded storm of faults under a mixed workload, with Muster's invariants checked at every poll and again once the
 * faults have healed. Two teams share a research budget of 16 GPUs (each guaranteed 8, borrowing the rest, reclaim on),
 * and submit gangs of four shapes through both front doors; each job runs a few seconds, then its pods exit, and once the
 * fleet shows it Succeeded its owner deletes it: through the door it came in by, or, for every other job submitted on
 * Kafka, with kubectl on the fleet object that shows it. Meanwhile,
 * at seeded moments: each service killed as {@code kill -9} would (the stack starts it again), the broker killed and
 * started again, placement crashed right after a chosen step of binding a gang or of stopping a reclaim's victim, a
 * member unreachable for less than the failover toleration, a node NotReady, a running pod crashing or killed for its
 * memory, the services cut off from the fleet API; and every few minutes, on its own schedule, a member partitioned
 * past the toleration, so that its jobs fail over, every other time with status sync crashing once its failover is on
 * the broker. New jobs wait while {@link #MAX_UNFINISHED} (24) are unfinished, so a long storm stays a storm, not a backlog.
 * <p>
 * Checked at every poll, from the members' own API servers and the queue's view: the members never hold more GPUs for
 * the two teams than research's max, nor a team more than the queue charges it; no job has a live copy on two members;
 * no quota node is above its max; no gang stays partly on nodes. A partitioned member is left out of the first three
 * during the failover window (the partition and {@link #PURGE_WINDOW} after Muster can purge it again: the member
 * reachable and status sync running), where its old copies legitimately run on. After the storm: every job ran to Succeeded, the fleet shows it, nothing is charged or held any more, every copy
 * on a member is where the job's last binding put it, no reservation still holds capacity (once placement has had
 * {@link #RESERVATION_SWEEP} to release those whose release a fault lost), a deleted job has no copy on
 * a member nor a fleet object or QueueUnit on the fleet, and the event log has no job bound again without being stopped in between, nor
 * admitted again without being preempted or given back by placement (no member could take it in time) in between.
 * <p>
 * In CI it runs {@value #DEFAULT_SECONDS} s of faults; {@code -Dmuster.storm.seconds=3600} runs an hour, and
 * {@code -Dmuster.storm.seed} another sequence. The long mode's pace: {@code muster.storm.submit-every} (ms),
 * {@code muster.storm.max-unfinished}, {@code muster.storm.fault-every} (s) and {@code muster.storm.job-seconds}; a stream
 * of small CPU-only jobs beside the GPU workload ({@code muster.storm.bulk-every}, ms, with
 * {@code muster.storm.bulk-max-unfinished} and {@code muster.storm.bulk-job-seconds}); and three fault lanes at once
 * ({@code muster.storm.fault-lanes=3}: processes, networks, nodes and pods). It prints the jobs, the faults by kind, the
 * violations, the jobs and faults per hour, and each kind of kill's recovery times.
 */
@FaultTier
class FaultStormIT {

    private static final int DEFAULT_SECONDS = 90;
    /**
     * How long after the storm a reservation may still hold capacity: one whose release a fault lost (the member
     * unreachable, placement killed before it ran) is found and released by placement within two reservation timeouts.
     */
    private static final Duration RESERVATION_SWEEP = Duration.ofSeconds(75);
    private static final long SEED = Long.getLong("muster.storm.seed", 20261202L);
    private static final Duration STORM = Duration.ofSeconds(Long.getLong("muster.storm.seconds", DEFAULT_SECONDS));
    /** How often a job is submitted ({@code muster.storm.submit-every}, milliseconds). */
    private static final Duration SUBMIT_EVERY = Duration.ofMillis(Long.getLong("muster.storm.submit-every", 2500));
    /**
     * No new job while this many wait or run: under faults the two teams' 16 GPUs finish fewer jobs than one per
     * {@link #SUBMIT_EVERY}, and an hour of it would end with a backlog no settling time drains.
     */
    private static final int MAX_UNFINISHED = Integer.getInteger("muster.storm.max-unfinished", 24);
    /** How long after the last fault healed the next comes ({@code muster.storm.fault-every}, seconds; one second either side). */
    private static final Duration FAULT_EVERY = Duration.ofSeconds(Long.getLong("muster.storm.fault-every", 4));
    /** How long a job runs once Running ({@code muster.storm.job-seconds}, the shortest and the longest, e.g. {@code 3-8}). */
    private static final int[] JOB_SECONDS = java.util.Arrays.stream(System.getProperty("muster.storm.job-seconds", "3-8").split("-"))
            .mapToInt(Integer::parseInt).toArray();
    /**
     * The long mode's stream of small jobs beside the GPU workload ({@code muster.storm.bulk-every}, milliseconds; 0, the
     * default, for none): gangs of a CPU-only master and worker, which no GPU quota holds back, so that a storm's jobs are
     * bounded by what Muster carries through its faults rather than by the teams' 16 GPUs.
     */
    private static final Duration BULK_EVERY = Duration.ofMillis(Long.getLong("muster.storm.bulk-every", 0));
    /** No new small job while this many of them wait or run ({@code muster.storm.bulk-max-unfinished}). */
    private static final int BULK_MAX_UNFINISHED = Integer.getInteger("muster.storm.bulk-max-unfinished", 60);
    /** How long a small job runs once Running ({@code muster.storm.bulk-job-seconds}). */
    private static final int[] BULK_JOB_SECONDS = java.util.Arrays.stream(System.getProperty("muster.storm.bulk-job-seconds", "1-3").split("-"))
            .mapToInt(Integer::parseInt).toArray();
    /**
     * How many faults may be under way at once ({@code muster.storm.fault-lanes}): 1, the default, one at a time; 3, one
     * of each lane at a time: processes (kills, crashes, the broker), networks (a member or the fleet API cut off), and
     * nodes and pods. Each lane waits {@link #FAULT_EVERY} after its last fault healed.
     */
    private static final int FAULT_LANES = Integer.getInteger("muster.storm.fault-lanes", 1);
    /** The shortest round of the storm's loop: a submission, a fault drawn, the due jobs completed, the invariants read. */
    private static final Duration MIN_ROUND = Duration.ofMillis(250);
    /** Short of the policies' failover toleration (30 s): the job stays where it is. */
    private static final Duration OUTAGE = Duration.ofSeconds(4);
    /** Past the policies' failover toleration (30 s): the member's jobs are placed again elsewhere. */
    private static final Duration PARTITION = Duration.ofSeconds(45);
    private static final Duration PARTITION_EVERY = Duration.ofMinutes(3);
    /** The member partitioned past the toleration: the one placement prefers for this workload, whose jobs then move to gpu-b. */
    private static final String PARTITIONED = "gpu-a";
    /**
     * After a partition heals, how long the failed-over jobs' old copies may live on: the documented failover window, in which
     * the member Muster could not reach still runs what it was given. Status sync must see the member again and purge. An
     * outage of the member or a restart of status sync inside the window holds it open this long after it is over.
     */
    private static final Duration PURGE_WINDOW = Duration.ofSeconds(30);
    private static final Duration SETTLE = Duration.ofMinutes(5);
    /** The steps of binding a gang, or of stopping one, placement can be made to crash right after (muster.placement.crash-after). */
    private static final List<String> CRASH_STEPS = List.of("committed", "reserved", "created", "bound", "evicted");
    /** How long a placement armed to crash waits for a gang to bind before it is disarmed. */
    private static final Duration ARMED = Duration.ofSeconds(30);
    private static final List<String> MEMBERS = List.of("gpu-a", "gpu-b", "gpu-c");
    private static final List<String> TEAMS = List.of("team-a", "team-b");
    private static final BigDecimal RESEARCH_GPUS = BigDecimal.valueOf(16);
    /** Far longer than binding a gang's pods one after another takes on a loaded machine; short of the failover toleration. */
    private static final Duration PARTIAL_GANG_GRACE = Duration.ofSeconds(10);
    private static final Path EXAMPLES = Path.of("..", "examples", "reclaim");

    private static MusterStack stack;
    private static KubernetesClient fleet;
    private static JobEventClient kafka;

    /**
     * A job of the workload: where it is, how it came (on the Kafka path, with the uid of its events), how many pods its
     * gang has, how long it runs once Running.
     */
    private record StormJob(String namespace, String name, JobRef viaKafka, int pods, Duration runs, boolean bulk) {

        boolean kafka() {
            return viaKafka != null;
        }
    }

    private enum Fault {
        KILL_QUEUE, KILL_PLACEMENT, CRASH_PLACEMENT_AT_STEP, KILL_STATUS_SYNC, BROKER_KILL, MEMBER_UNREACHABLE, NODE_NOT_READY, POD_FAILS, FLEET_API_UNREACHABLE,
        MEMBER_PAST_TOLERATION, CRASH_STATUS_SYNC_AT_FAILOVER;

        /** Faults drawn at random; a partition past the toleration comes on its own schedule, and with it status sync's crash. */
        static final List<Fault> DRAWN = java.util.Arrays.stream(values())
                .filter(fault -> fault != MEMBER_PAST_TOLERATION && fault != CRASH_STATUS_SYNC_AT_FAILOVER).toList();

        /** The lane of {@link #FAULT_LANES} 3 the fault belongs to: 0 processes, 1 networks, 2 nodes and pods. */
        int lane() {
            return switch (this) {
                case KILL_QUEUE, KILL_PLACEMENT, CRASH_PLACEMENT_AT_STEP, KILL_STATUS_SYNC, BROKER_KILL, CRASH_STATUS_SYNC_AT_FAILOVER -> 0;
                case MEMBER_UNREACHABLE, FLEET_API_UNREACHABLE, MEMBER_PAST_TOLERATION -> 1;
                case NODE_NOT_READY, POD_FAILS -> 2;
            };
        }
    }

    private final Random random = new Random(SEED);
    private final List<StormJob> jobs = new ArrayList<>();
    private final Map<String, StormJob> byName = new HashMap<>();
    private final Map<String, Instant> runningSince = new HashMap<>();
    private final Set<String> completed = new HashSet<>();
    private final Map<Fault, Integer> injected = Collections.synchronizedMap(new TreeMap<>());
    /** Since when each member copy ({@code member/job}) has had some but not all of its gang's pods on nodes. */
    private final Map<String, Instant> partialSince = new HashMap<>();
    private final Set<String> partialReported = new HashSet<>();
    private final List<String> recoveries = Collections.synchronizedList(new ArrayList<>());
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    /** The processes' lane, and every fault's with one lane: kills and restarts of services run here, one at a time. */
    private final ExecutorService faults = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "storm-faults"));
    /** The other lanes ({@link #FAULT_LANES} 3): networks, then nodes and pods. */
    private final List<ExecutorService> otherLanes = List.of(
            Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "storm-faults-network")),
            Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "storm-faults-nodes")));
    /** Small jobs drawn from their own sequence, so that a seed's GPU workload and faults are the same with or without them. */
    private final Random bulkRandom = new Random(SEED + 1);
    /** Each kill's or crash's recovery, in seconds, by what recovered: the long mode prints these rather than every line. */
    private final Map<String, List<Double>> recoveryTimes = new java.util.concurrent.ConcurrentHashMap<>();
    private final ExecutorService partitions = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "storm-partitions"));
    private int partitionsStarted;
    /** How many outages hold each member's network cut now: a short one may fall inside a partition and must not end it. */
    private final Map<String, Integer> cuts = new HashMap<>();
    /** Until when each member's copies are in a failover's window (partitioned, or purging since it healed). */
    private final Map<String, Instant> failoverWindow = new java.util.concurrent.ConcurrentHashMap<>();
    private final ExecutorService submissions = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "storm-kafka"));

    @BeforeAll
    static void startMuster() throws Exception {
        // The storm's time runs fast (jobs of seconds, a partition every 3 minutes, 5 to settle): a job that failed over
        // avoids the member it left for 2 minutes, not the default 10, which would outlast the settling when nothing
        // else fits it; 2 minutes is still well past the old copy's purge once the member answers (PURGE_WINDOW).
        stack = MusterStack.start(Path.of("..", "deploy", "local", "fleet.yaml"),
                Map.of(MusterService.PLACEMENT, Map.of("muster.placement.failover-exclusion", "2m")));
        fleet = stack.fleet.connect();
        kafka = new JobEventClient(stack.bootstrapServers());
        new Kubectl(stack.fleet.kubeconfig()).run("apply", "-f", EXAMPLES.resolve("setup.yaml").toString()).succeeded();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.quotaUsed(ResourceNames.GPU).map(used -> used.containsKey("root/research/team-b")).orElse(false));
    }

    @AfterAll
    static void stopMuster() {
        if (kafka != null) {
            kafka.close();
        }
        if (fleet != null) {
            fleet.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void aSeededStormOfKillsOutagesAndNodeFaultsLosesNoJobAndBreaksNoInvariant() throws Exception {
        Instant start = Instant.now();
        Instant end = start.plus(STORM);
        Instant nextSubmission = start;
        Instant nextBulk = start;
        int lanes = FAULT_LANES == 3 ? 3 : 1;
        Instant[] nextFault = new Instant[lanes];
        java.util.Arrays.fill(nextFault, start.plus(FAULT_EVERY));
        java.util.concurrent.Future<?>[] lastFault = new java.util.concurrent.Future<?>[lanes];
        Instant nextPartition = start.plus(Duration.ofSeconds(15));
        while (Instant.now().isBefore(end)) {
            Instant round = Instant.now();
            if (!Instant.now().isBefore(nextPartition)) {
                // Every other partition, the first one included, with status sync armed to crash at its failover.
                boolean crashStatusSync = partitionsStarted++ % 2 == 0;
                partitions.submit(() -> partitionPastTheToleration(crashStatusSync));
                nextPartition = nextPartition.plus(PARTITION_EVERY);
            }
            if (!Instant.now().isBefore(nextSubmission)) {
                if (unfinished(false) < MAX_UNFINISHED) {
                    submit(jobs.size());
                }
                nextSubmission = nextSubmission.plus(SUBMIT_EVERY);
            }
            // Small jobs catch up with their pace after a slow poll, a few at a time.
            for (int due = 0; !BULK_EVERY.isZero() && due < 5 && !Instant.now().isBefore(nextBulk); due++) {
                if (unfinished(true) < BULK_MAX_UNFINISHED) {
                    submitBulk(jobs.size());
                }
                nextBulk = nextBulk.plus(BULK_EVERY);
            }
            // One fault at a time in each lane: a kill and its recovery can take longer than the interval, and faults
            // queued behind it would go on long after the storm (on a loaded machine, past the time allowed for the last to heal).
            for (int lane = 0; lane < lanes; lane++) {
                if (!Instant.now().isBefore(nextFault[lane]) && (lastFault[lane] == null || lastFault[lane].isDone())) {
                    int inLane = lane;
                    List<Fault> drawn = lanes == 1 ? Fault.DRAWN : Fault.DRAWN.stream().filter(fault -> fault.lane() == inLane).toList();
                    lastFault[lane] = inject(drawn.get(random.nextInt(drawn.size())));
                    nextFault[lane] = Instant.now().plus(FAULT_EVERY.plusMillis(random.nextInt(2000) - 1000));
                }
            }
            completeDueJobs();
            checkInvariants();
            pace(round);
        }
        // Partitions first: one arms and disarms status sync's crash through the faults' thread.
        partitions.shutdown();
        assertThat(partitions.awaitTermination(3, TimeUnit.MINUTES)).as("the last partition healed").isTrue();
        faults.shutdown();
        assertThat(faults.awaitTermination(2, TimeUnit.MINUTES)).as("the last faults healed").isTrue();
        for (ExecutorService lane : otherLanes) {
            lane.shutdown();
            assertThat(lane.awaitTermination(2, TimeUnit.MINUTES)).as("the last faults healed").isTrue();
        }
        Instant healed = Instant.now();

        Instant deadline = healed.plus(SETTLE);
        while (Instant.now().isBefore(deadline) && completed.size() < jobs.size()) {
            completeDueJobs();
            checkInvariants();
        }
        Duration settled = Duration.between(healed, Instant.now());
        // Submissions, and the deletions of what ran, through Kafka.
        submissions.shutdown();
        assertThat(submissions.awaitTermination(2, TimeUnit.MINUTES)).as("every Kafka submission and deletion sent").isTrue();
        List<String> unfinished = jobs.stream().filter(job -> !completed.contains(job.name())).map(this::whereItStands).toList();
        finalChecks();

        System.out.printf("fault storm (seed %d, %d s): %d jobs (%d through Kafka, %d small), %d faults %s, %d violations, all Succeeded %.1f s after"
                        + " the faults healed%n", SEED, STORM.toSeconds(), jobs.size(), jobs.stream().filter(StormJob::kafka).count(),
                jobs.stream().filter(StormJob::bulk).count(), injected.values().stream().mapToInt(Integer::intValue).sum(), injected,
                violations.size(), settled.toMillis() / 1000.0);
        double hours = STORM.toSeconds() / 3600.0;
        System.out.printf("  %d fault lane(s): %.0f jobs and %.0f faults per hour of storm%n", lanes, jobs.size() / hours,
                injected.values().stream().mapToInt(Integer::intValue).sum() / hours);
        recoveryTimes.forEach((what, times) -> System.out.printf("  %s: %d times, %.1f s at the median, %.1f-%.1f s%n", what, times.size(),
                times.stream().sorted().toList().get(times.size() / 2), java.util.Collections.min(times), java.util.Collections.max(times)));
        if (recoveries.size() <= 40) {
            recoveries.forEach(recovery -> System.out.println("  recovered: " + recovery));
        }
        violations.forEach(violation -> System.out.println("  VIOLATION: " + violation));
        // What went wrong first, in the one line a CI summary shows, and then each such job's story.
        assertThat(unfinished).as("jobs that did not run to the end: %s; logs: %s%n%s", unfinished, stack.logs(), jobs.stream()
                .filter(job -> !completed.contains(job.name())).map(job -> stack.story(job.namespace(), job.name()))
                .collect(java.util.stream.Collectors.joining("\n"))).isEmpty();
        assertThat(violations).as("%d violations: %s; logs: %s; readiness now:%s", violations.size(), violations, stack.logs(), stack.readiness())
                .isEmpty();
    }

    /** A gang of one of four shapes, for either team, half of them preemptible, on alternating front doors. */
    private void submit(int index) throws Exception {
        String team = TEAMS.get(random.nextInt(TEAMS.size()));
        int[][] shapes = {{1, 4}, {2, 2}, {2, 4}, {1, 1}};
        int[] shape = shapes[random.nextInt(shapes.length)];
        String name = "storm-" + index;
        String priorityClass = random.nextBoolean() ? "\n  runPolicy: {schedulingPolicy: {priorityClass: team-low}}" : "";
        PyTorchJob job = workload(name, team, priorityClass, shape[0], "cpu: \"2\", nvidia.com/gpu: \"" + shape[1] + "\"");
        JobRef ref = index % 2 == 1 ? new JobRef(team, name, UUID.randomUUID().toString()) : null;
        StormJob stormJob = new StormJob(team, name, ref, 1 + shape[0],
                Duration.ofMillis(1000L * JOB_SECONDS[0] + random.nextInt(1000 * (JOB_SECONDS[1] - JOB_SECONDS[0]) + 1)), false);
        send(stormJob, job);
    }

    /** A small job of the long mode: a CPU-only master and worker, for either team, on alternating front doors. */
    private void submitBulk(int index) throws Exception {
        String team = TEAMS.get(bulkRandom.nextInt(TEAMS.size()));
        String name = "storm-" + index;
        PyTorchJob job = workload(name, team, "", 1, "cpu: \"1\"");
        JobRef ref = index % 2 == 1 ? new JobRef(team, name, UUID.randomUUID().toString()) : null;
        send(new StormJob(team, name, ref, 2, Duration.ofMillis(1000L * BULK_JOB_SECONDS[0]
                + bulkRandom.nextInt(1000 * (BULK_JOB_SECONDS[1] - BULK_JOB_SECONDS[0]) + 1)), true), job);
    }

    /**
     * A job of the workload: a master of 1 CPU and workers with these limits, each pod ending a second after it is asked
     * to stop, restarted on failure; {@code runPolicy} is empty or a YAML line of the spec.
     */
    private static PyTorchJob workload(String name, String team, String runPolicy, int workers, String workerLimits) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: %s}
                spec:%s
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      restartPolicy: OnFailure
                      template:
                        metadata: {annotations: {muster.dev/stop-delay: 1s}}
                        spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "1"}}}]}
                    Worker:
                      replicas: %d
                      restartPolicy: OnFailure
                      template:
                        metadata: {annotations: {muster.dev/stop-delay: 1s}}
                        spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {%s}}}]}
                """.formatted(name, team, runPolicy, workers, workerLimits), PyTorchJob.class);
    }

    /** How many of the workload's jobs, the small ones or the others, wait or run. */
    private long unfinished(boolean bulk) {
        return jobs.stream().filter(job -> job.bulk() == bulk && !completed.contains(job.name())).count();
    }

    /** Submits the job through its door: on Kafka with the uid of its events, or to the fleet API. */
    private void send(StormJob stormJob, PyTorchJob job) {
        JobRef ref = stormJob.viaKafka();
        String team = stormJob.namespace();
        jobs.add(stormJob);
        byName.put(stormJob.name(), stormJob);
        if (stormJob.kafka()) {
            // While the broker is down the producer waits, and this thread with it: the storm goes on.
            submissions.submit(() -> sendUntilAccepted(JobEvent.create("/storm", ref, Instant.now(), new JobSubmitted(job))));
        } else {
            fleet.resources(PyTorchJob.class).inNamespace(team).resource(job).create();
        }
    }

    /** Sends a submission or deletion, again under the same id while the broker is away, as a producer retries. */
    private void sendUntilAccepted(JobEvent event) {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(3));
        while (true) {
            try {
                kafka.send(Topics.SUBMISSIONS, event);
                return;
            } catch (RuntimeException e) {
                if (Instant.now().isAfter(giveUp)) {
                    violations.add("the " + event.type().cloudEventType() + " event of " + event.subject() + " was not accepted by the broker in 3 minutes: " + e);
                    return;
                }
            }
        }
    }

    /**
     * A job that ran to its end is deleted by its owner, through the door it came in by, or for every other Kafka job on
     * the fleet object that shows it (the queue may be down meanwhile): its QueueUnit and member copy go.
     */
    private void delete(StormJob job) {
        if (job.kafka() && Math.floorMod(job.name().hashCode(), 2) == 0) {
            submissions.submit(() -> sendUntilAccepted(JobEvent.create("/storm", job.viaKafka(), Instant.now(),
                    new dev.muster.model.event.JobDeleted("the storm deletes what has run"))));
        } else {
            fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).delete();
        }
    }

    private java.util.concurrent.Future<?> inject(Fault fault) {
        // Drawn here, on the storm's thread, so that one seed is one sequence of faults.
        String member = MEMBERS.get(random.nextInt(2));
        int node = random.nextInt(4);
        int pod = random.nextInt(1000);
        int exitCode = random.nextBoolean() ? 1 : 137;
        String step = CRASH_STEPS.get(random.nextInt(CRASH_STEPS.size()));
        ExecutorService lane = FAULT_LANES == 3 && fault.lane() > 0 ? otherLanes.get(fault.lane() - 1) : faults;
        return lane.submit(() -> {
            try {
                injected.merge(fault, 1, Integer::sum);
                switch (fault) {
                    case KILL_QUEUE -> kill(MusterService.QUEUE);
                    case KILL_PLACEMENT -> kill(MusterService.PLACEMENT);
                    case CRASH_PLACEMENT_AT_STEP -> crashPlacementAfter(step);
                    case KILL_STATUS_SYNC -> kill(MusterService.STATUS_SYNC);
                    case BROKER_KILL -> {
                        Instant killed = Instant.now();
                        stack.broker().kill();
                        Thread.sleep(OUTAGE.toMillis()); // the outage held, not a wait for a condition
                        stack.broker().startAgain();
                        recovered("broker", killed);
                        recoveries.add("broker back in " + seconds(killed));
                    }
                    case MEMBER_UNREACHABLE -> {
                        cut(member);
                        Thread.sleep(OUTAGE.toMillis());
                        restore(member);
                    }
                    case NODE_NOT_READY -> {
                        SimulatedCluster gpuA = stack.member("gpu-a");
                        String name = gpuA.client().nodes().list().getItems().get(node).getMetadata().getName();
                        gpuA.faults().nodeNotReady(name);
                        Thread.sleep(OUTAGE.toMillis());
                        gpuA.faults().nodeReady(name);
                    }
                    case POD_FAILS -> failARunningPod(pod, exitCode);
                    case MEMBER_PAST_TOLERATION -> throw new IllegalArgumentException("a partition comes on its own schedule");
                    case FLEET_API_UNREACHABLE -> {
                        stack.fleetNetwork().unreachable();
                        Thread.sleep(OUTAGE.toMillis());
                        stack.fleetNetwork().heal();
                    }
                }
            } catch (Exception e) {
                violations.add("injecting " + fault + " failed: " + e);
            }
        });
    }

    /**
     * The member's network to Muster is cut past the failover toleration: its jobs are placed again elsewhere while their
     * old copies run on where Muster cannot see them, and once it is back those copies are purged. The invariants about
     * copies and GPUs held leave that member out for the window; past it, its leftovers are violations. Armed, status
     * sync crashes once its first failover of the partition is on the broker, and its next instance must finish it.
     */
    private void partitionPastTheToleration(boolean crashStatusSync) {
        injected.merge(Fault.MEMBER_PAST_TOLERATION, 1, Integer::sum);
        try {
            long crashesBefore = crashesLogged(MusterService.STATUS_SYNC);
            // On the faults' thread, as every kill is: a restart must not race the stack's own restart after a kill.
            boolean armed = crashStatusSync && faults.submit(() -> restartStatusSync(Map.of("muster.status-sync.crash-after", "failed-over"))).get();
            Instant cutAt = Instant.now();
            failoverWindow.put(PARTITIONED, Instant.MAX);
            cut(PARTITIONED);
            Thread.sleep(PARTITION.toMillis()); // the partition held, not a wait for a condition
            restore(PARTITIONED);
            Instant healed = Instant.now();
            failoverWindow.put(PARTITIONED, healed.plus(PURGE_WINDOW));
            recoveries.add(PARTITIONED + " partitioned for " + seconds(cutAt));
            if (armed && crashesLogged(MusterService.STATUS_SYNC) > crashesBefore) {
                injected.merge(Fault.CRASH_STATUS_SYNC_AT_FAILOVER, 1, Integer::sum);
                org.awaitility.Awaitility.await("status sync ready again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                        .until(() -> stack.ready(MusterService.STATUS_SYNC));
                holdFailoverWindowOpen(PARTITIONED);
                recoveries.add("status-sync-service crashed once its failover was on the broker; ready " + seconds(healed)
                        + " after the partition healed");
            } else if (armed) {
                faults.submit(() -> restartStatusSync(Map.of())).get();
                holdFailoverWindowOpen(PARTITIONED);
                recoveries.add("status sync did not crash at a failover in " + PARTITIONED + "'s partition (killed first, or none decided); disarmed");
            }
        } catch (Exception e) {
            violations.add("partitioning " + PARTITIONED + " failed: " + e);
        }
    }

    /**
     * Restarts status sync with these settings for one run, again if the storm's kills got in the way (it is then
     * started as it was); false if they did three times.
     */
    private boolean restartStatusSync(Map<String, String> forThisRun) throws Exception {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                stack.restart(MusterService.STATUS_SYNC, forThisRun);
                return true;
            } catch (IllegalStateException e) {
                org.awaitility.Awaitility.await("status sync ready again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                        .until(() -> stack.ready(MusterService.STATUS_SYNC));
            }
        }
        recoveries.add("status sync could not be armed to crash at a failover: killed while it restarted, three times");
        return false;
    }

    /** How many times the service has halted at a crash point, as its log says. */
    private static long crashesLogged(MusterService service) throws java.io.IOException {
        // Read as Latin-1, which maps every byte: a log line may hold anything a service printed. Line by line: a long
        // storm's log runs to hundreds of megabytes.
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(stack.service(service).log(), java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> line.contains("crashing after step")).count();
        }
    }

    private void cut(String member) {
        synchronized (cuts) {
            if (cuts.merge(member, 1, Integer::sum) == 1) {
                stack.member(member).faults().unreachable();
            }
        }
    }

    private void restore(String member) {
        synchronized (cuts) {
            if (cuts.merge(member, -1, Integer::sum) == 0) {
                stack.member(member).faults().reachable();
                holdFailoverWindowOpen(member);
            }
        }
    }

    /**
     * An outage of a member whose failover window is open, or a restart of status sync, which purges, holds back the
     * purge of the old copies: the window runs on until {@link #PURGE_WINDOW} after Muster can purge again. A window
     * already past is not opened again.
     */
    private void holdFailoverWindowOpen(String member) {
        Instant now = Instant.now();
        failoverWindow.computeIfPresent(member, (name, until) -> now.isBefore(until) && until.isBefore(now.plus(PURGE_WINDOW))
                ? now.plus(PURGE_WINDOW) : until);
    }

    /** Whether the member's copies are in a failover's window now, where a job may have an old copy there and a new one elsewhere. */
    private boolean inFailoverWindow(String member, Instant at) {
        return at.isBefore(failoverWindow.getOrDefault(member, Instant.MIN));
    }

    /**
     * One of the workload's running pods, on any member, crashes (exit code 1) or is killed for its memory (137); under
     * the jobs' {@code restartPolicy: OnFailure} its container starts again, and the job runs on to its end.
     */
    private void failARunningPod(int draw, int exitCode) {
        List<Map.Entry<String, io.fabric8.kubernetes.api.model.Pod>> running = new ArrayList<>();
        for (String member : MEMBERS) {
            for (String team : TEAMS) {
                stack.member(member).client().pods().inNamespace(team).list().getItems().stream()
                        .filter(candidate -> candidate.getStatus() != null && "Running".equals(candidate.getStatus().getPhase())
                                && candidate.getMetadata().getDeletionTimestamp() == null)
                        .forEach(pod -> running.add(Map.entry(member, pod)));
            }
        }
        if (running.isEmpty()) {
            injected.merge(Fault.POD_FAILS, -1, Integer::sum); // nothing ran anywhere to fail
            return;
        }
        Map.Entry<String, io.fabric8.kubernetes.api.model.Pod> victim = running.get(draw % running.size());
        try {
            stack.member(victim.getKey()).faults().failPod(victim.getValue().getMetadata().getNamespace(),
                    victim.getValue().getMetadata().getName(), exitCode);
        } catch (java.util.NoSuchElementException e) {
            injected.merge(Fault.POD_FAILS, -1, Integer::sum); // it ended in between
        }
    }

    /** Kills the service and waits until the stack has started it again and it is ready. */
    private void kill(MusterService service) throws Exception {
        Instant killed = Instant.now();
        stack.service(service).kill();
        org.awaitility.Awaitility.await(service.artifact() + " ready again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                .until(() -> stack.ready(service));
        recovered(service.artifact() + " after kill -9", killed);
        if (service == MusterService.STATUS_SYNC) {
            MEMBERS.forEach(this::holdFailoverWindowOpen);
        }
        recoveries.add(service.artifact() + " ready again " + seconds(killed) + " after kill -9");
    }

    private void recovered(String what, Instant since) {
        recoveryTimes.computeIfAbsent(what, key -> Collections.synchronizedList(new ArrayList<>()))
                .add(Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    /**
     * Placement halts, as a crash would, right after this step of binding the next gang (its decision committed, the
     * gang's reservations made, its member copy created, or its binding written) or of stopping the next job it stops (a
     * reclaim's victim, asked to stop, not yet reported stopped). The stack starts it again as it was.
     */
    private void crashPlacementAfter(String step) throws Exception {
        stack.restart(MusterService.PLACEMENT, Map.of("muster.placement.crash-after", step));
        Instant armed = Instant.now();
        if (!stack.service(MusterService.PLACEMENT).awaitExit(ARMED)) {
            stack.restart(MusterService.PLACEMENT, Map.of());
            recoveries.add("placement reached no step in " + ARMED.toSeconds() + " s to crash after '" + step + "'; disarmed");
            return;
        }
        Instant crashed = Instant.now();
        org.awaitility.Awaitility.await("placement ready again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                .until(() -> stack.ready(MusterService.PLACEMENT));
        recovered("placement-service after a crash mid-bind", crashed);
        recoveries.add("placement-service crashed after '" + step + "' " + seconds(armed) + " after it was armed, ready again "
                + seconds(crashed) + " after");
    }

    private static String seconds(Instant since) {
        return String.format("%.1f s", Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    /** Lets the pods of every job that has run long enough exit, as a finished program does. */
    private void completeDueJobs() {
        Map<String, JobCondition> states = fleetStates();
        for (StormJob job : jobs) {
            if (completed.contains(job.name())) {
                continue;
            }
            Optional<String> state = Optional.ofNullable(states.get(job.name())).map(JobCondition::type);
            if (state.filter("Succeeded"::equals).isPresent()) {
                completed.add(job.name());
                delete(job);
            } else if (state.filter("Running"::equals).isPresent()) {
                Instant since = runningSince.computeIfAbsent(job.name(), name -> Instant.now());
                if (Instant.now().isAfter(since.plus(job.runs()))) {
                    MEMBERS.forEach(member -> stack.member(member).completeJob(job.namespace(), job.name()));
                }
            } else {
                // Preempted, or failed over: it runs its whole time again once it is back.
                runningSince.remove(job.name());
            }
        }
    }

    /** An unfinished job as the fleet, the queue and the members show it, for the failure's first line. */
    private String whereItStands(StormJob job) {
        PyTorchJob current = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
        String onTheFleet = current == null ? "not on the fleet"
                : current.getStatus() == null ? "no status on the fleet"
                : current.getStatus().currentCondition().map(condition -> condition.type() + " (" + condition.reason() + ")").orElse("no condition");
        List<String> copies = MEMBERS.stream().filter(member -> stack.member(member).client().resources(PyTorchJob.class)
                .inNamespace(job.namespace()).withName(job.name()).get() != null).toList();
        return job.namespace() + "/" + job.name() + (job.kafka() ? " (Kafka)" : " (fleet API)") + ": " + onTheFleet + ", in the queue "
                + stack.queueState(job.namespace(), job.name()).orElse("nowhere") + ", copies on " + copies;
    }

    /**
     * Each workload job's state as the fleet shows it, by name (names are unique across the teams), from one list per
     * team: a long storm has hundreds of jobs unfinished at once, and a request for each made a poll take seconds.
     */
    private Map<String, JobCondition> fleetStates() {
        Map<String, JobCondition> states = new HashMap<>();
        for (String team : TEAMS) {
            for (PyTorchJob job : fleet.resources(PyTorchJob.class).inNamespace(team).list().getItems()) {
                if (job.getStatus() != null) {
                    job.getStatus().currentCondition().ifPresent(condition -> states.put(job.getMetadata().getName(), condition));
                }
            }
        }
        return states;
    }

    /** One poll of the invariants that must hold at every moment, faults or not. */
    private void checkInvariants() {
        Instant at = Instant.now();
        List<String> seen = MEMBERS.stream().filter(member -> !inFailoverWindow(member, at)).toList();
        // The members and the queue are read one after another, not at one instant: a job that ends between two reads
        // can look held and not charged, and one that moves between members counted twice. A breach is one that a
        // second reading right after still shows; a real one lasts as long as a pod takes to stop, seconds.
        List<String> gpuBreaches = gpuBreaches(at, seen);
        if (!gpuBreaches.isEmpty() && !gpuBreaches(at, seen).isEmpty()) {
            violations.addAll(gpuBreaches);
        }
        Map<String, List<String>> copies = new HashMap<>();
        Set<String> partial = new HashSet<>();
        for (String member : MEMBERS) {
            for (String team : TEAMS) {
                Map<String, Long> podsOnNodes = podsOnNodes(member, team);
                for (PyTorchJob copy : stack.member(member).client().resources(PyTorchJob.class).inNamespace(team).list().getItems()) {
                    String uid = copy.getMetadata().getLabels() == null ? null : copy.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID);
                    boolean finished = copy.getStatus() != null && copy.getStatus().currentCondition().map(JobCondition::type)
                            .filter(type -> type.equals("Succeeded") || type.equals("Failed")).isPresent();
                    if (uid != null && copy.getMetadata().getDeletionTimestamp() == null && !finished) {
                        if (seen.contains(member)) {
                            copies.computeIfAbsent(uid, key -> new ArrayList<>()).add(member);
                        }
                        long onNodes = podsOnNodes.getOrDefault(copy.getMetadata().getName(), 0L);
                        int gang = Optional.ofNullable(byName.get(copy.getMetadata().getName())).map(StormJob::pods).orElse(0);
                        if (onNodes > 0 && onNodes < gang) {
                            partial.add(member + "/" + team + "/" + copy.getMetadata().getName() + " (" + onNodes + " of " + gang + " pods)");
                        }
                    }
                }
            }
        }
        checkNoGangStaysPartial(at, partial);
        copies.forEach((uid, members) -> {
            if (members.size() > 1) {
                violations.add(at + ": job " + uid + " has live copies on " + members);
            }
        });
    }

    /**
     * What one reading of the members' pods and the queue's charges shows over a limit: the research budget's GPUs held
     * above its max, a team's pods holding more than the queue charges it (read before and after the pods, the larger
     * reading counting), research charged above its max.
     */
    private List<String> gpuBreaches(Instant at, List<String> seen) {
        List<String> breaches = new ArrayList<>();
        Optional<Map<String, BigDecimal>> chargedBefore = stack.quotaUsed(ResourceNames.GPU);
        Map<String, BigDecimal> held = stack.gpusHeld(TEAMS, seen);
        Optional<Map<String, BigDecimal>> chargedAfter = stack.quotaUsed(ResourceNames.GPU);
        BigDecimal total = held.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        if (total.compareTo(RESEARCH_GPUS) > 0) {
            breaches.add(at + ": the members hold " + total + " GPUs for research, above its max 16: " + held);
        }
        if (chargedBefore.isEmpty() || chargedAfter.isEmpty()) {
            return breaches; // the queue is being restarted: its view says nothing now
        }
        for (String team : TEAMS) {
            String node = "root/research/" + team;
            BigDecimal teamCharged = chargedBefore.get().getOrDefault(node, BigDecimal.ZERO).max(chargedAfter.get().getOrDefault(node, BigDecimal.ZERO));
            if (held.getOrDefault(team, BigDecimal.ZERO).compareTo(teamCharged) > 0) {
                breaches.add(at + ": " + team + "'s pods hold " + held.get(team) + " GPUs, the queue charges it " + teamCharged);
            }
        }
        for (Map<String, BigDecimal> charged : List.of(chargedBefore.get(), chargedAfter.get())) {
            if (charged.getOrDefault("root/research", BigDecimal.ZERO).compareTo(RESEARCH_GPUS) > 0) {
                breaches.add(at + ": the queue charges research " + charged.get("root/research") + " GPUs, above its max 16");
            }
        }
        return breaches;
    }

    /** Per job of the team, how many of its pods the member has on nodes and not ended, terminating ones included. */
    private Map<String, Long> podsOnNodes(String member, String team) {
        return stack.member(member).client().pods().inNamespace(team).list().getItems().stream()
                .filter(pod -> pod.getSpec().getNodeName() != null && pod.getStatus() != null
                        && !"Succeeded".equals(pod.getStatus().getPhase()) && !"Failed".equals(pod.getStatus().getPhase())
                        && pod.getMetadata().getLabels() != null && pod.getMetadata().getLabels().containsKey(GangPod.JOB_NAME_LABEL))
                .collect(java.util.stream.Collectors.groupingBy(pod -> pod.getMetadata().getLabels().get(GangPod.JOB_NAME_LABEL),
                        java.util.stream.Collectors.counting()));
    }

    /**
     * A live copy with some of its gang on nodes and the rest not is a partial gang. Pods are bound one after another, so
     * a poll can catch a gang half bound for an instant; one that stays so past {@link #PARTIAL_GANG_GRACE} is a violation.
     */
    private void checkNoGangStaysPartial(Instant at, Set<String> partial) {
        partialSince.keySet().retainAll(partial);
        for (String copy : partial) {
            Instant since = partialSince.computeIfAbsent(copy, key -> at);
            if (Duration.between(since, at).compareTo(PARTIAL_GANG_GRACE) > 0 && partialReported.add(copy)) {
                violations.add(at + ": a partial gang on a member since " + since + ": " + copy);
            }
        }
    }

    /** Once everything has settled: nothing charged or held, and the log shows each binding and admission earned. */
    private void finalChecks() {
        stack.quotaUsed(ResourceNames.GPU).ifPresentOrElse(charged -> charged.forEach((node, used) -> {
            if (node.startsWith("root/research") && used.signum() != 0) {
                violations.add("after the storm the queue still charges " + node + " " + used + " GPUs, holding " + stillHeldByTheQueue());
            }
        }), () -> violations.add("after the storm the queue's view does not answer"));
        Map<String, BigDecimal> held = stack.gpusHeld(TEAMS, MEMBERS);
        held.forEach((team, gpus) -> {
            if (gpus.signum() != 0) {
                violations.add("after the storm " + team + "'s pods still hold " + gpus + " GPUs");
            }
        });
        List<JobEvent> placements = kafka.readAll(Topics.PLACEMENTS);
        List<JobEvent> admissions = kafka.readAll(Topics.ADMISSIONS);
        List<JobEvent> memberStatus = kafka.readAll(Topics.MEMBER_STATUS);
        checkEveryCopyIsBoundAndNoReservationIsLeft(placements);
        checkDeletedJobsLeaveNothing();
        // By job, once: a long storm's log holds hundreds of thousands of events.
        Map<String, List<JobEvent>> placementsOf = byJob(placements);
        Map<String, List<JobEvent>> admissionsOf = byJob(admissions);
        Map<String, List<JobEvent>> memberStatusOf = byJob(memberStatus);
        for (StormJob job : jobs) {
            String subject = job.namespace() + "/" + job.name();
            long bound = distinctIds(placementsOf.get(subject), EventType.BOUND);
            long stopped = distinctIds(placementsOf.get(subject), EventType.EVICTED);
            long failedOver = distinctIds(memberStatusOf.get(subject), EventType.FAILOVER_TRIGGERED);
            if (bound > stopped + failedOver + 1) {
                violations.add(job.name() + " was bound " + bound + " times but stopped only " + stopped + " times and failed over "
                        + failedOver + " times");
            }
            long admitted = distinctIds(admissionsOf.get(subject), EventType.ADMITTED);
            long preempted = distinctIds(admissionsOf.get(subject), EventType.PREEMPTED);
            long givenBack = distinctIds(placementsOf.get(subject), EventType.GIVEN_BACK);
            if (admitted > preempted + givenBack + 1) {
                violations.add(job.name() + " was admitted " + admitted + " times but preempted only " + preempted + " times and given back "
                        + givenBack + " times");
            }
        }
    }

    /**
     * Holds a round of the storm's loop to {@link #MIN_ROUND} at least: the loop reads every member and the fleet each
     * round, and on two cores a loop that never pauses takes a core from the services it storms.
     */
    private static void pace(Instant roundStarted) throws InterruptedException {
        long left = MIN_ROUND.minus(Duration.between(roundStarted, Instant.now())).toMillis();
        if (left > 0) {
            Thread.sleep(left); // pacing, not a wait for a condition
        }
    }

    /** The jobs the queue still holds, each with its state there; what the services logged about each is printed. */
    private List<String> stillHeldByTheQueue() {
        List<String> held = new ArrayList<>();
        for (StormJob job : jobs) {
            stack.queueState(job.namespace(), job.name()).ifPresent(state -> {
                held.add(job.namespace() + "/" + job.name() + " " + state);
                System.out.println(stack.story(job.namespace(), job.name()));
            });
        }
        return held;
    }

    /**
     * Every copy Muster left on a member is where its job's last binding put it (no copy without a binding, none
     * left behind by a placement given up or undone), and no reservation still holds capacity once every job is done.
     */
    private void checkEveryCopyIsBoundAndNoReservationIsLeft(List<JobEvent> placements) {
        Map<String, String> lastBinding = new HashMap<>();
        for (JobEvent event : placements) {
            if (event.data() instanceof JobBound bound) {
                lastBinding.put(event.job().uid(), bound.cluster());
            } else if (event.data() instanceof JobEvicted evicted && evicted.cluster() != null) {
                // Stopped on that member; one that names no member stopped nothing (the job had not been placed, or had finished there).
                lastBinding.remove(event.job().uid());
            }
        }
        for (String member : MEMBERS) {
            KubernetesClient client = stack.member(member).client();
            for (String team : TEAMS) {
                for (PyTorchJob copy : client.resources(PyTorchJob.class).inNamespace(team).list().getItems()) {
                    String uid = copy.getMetadata().getLabels() == null ? null : copy.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID);
                    if (uid != null && copy.getMetadata().getDeletionTimestamp() == null && !member.equals(lastBinding.get(uid))) {
                        violations.add("after the storm " + member + " holds a copy of " + team + "/" + copy.getMetadata().getName()
                                + " that its last binding (" + lastBinding.getOrDefault(uid, "none") + ") did not put there");
                    }
                }
            }
        }
        List<String> held = whatIsLeftAfter(RESERVATION_SWEEP, () -> {
            List<String> holding = new ArrayList<>();
            for (String member : MEMBERS) {
                try {
                    stack.member(member).client().resources(Reservation.class).list().getItems().stream()
                            .filter(reservation -> Reservation.PENDING.equals(reservation.phase()) || Reservation.AVAILABLE.equals(reservation.phase()))
                            .forEach(reservation -> holding.add(member + " still holds reservation " + reservation.getMetadata().getName()
                                    + " (" + reservation.phase() + ")"));
                } catch (KubernetesClientException e) {
                    // a member that serves no reservations
                }
            }
            return holding;
        });
        held.forEach(reservation -> violations.add(RESERVATION_SWEEP.toSeconds() + " s after the storm " + reservation));
    }

    /** Every job was deleted once it succeeded: within a minute none has a copy on a member or a QueueUnit on the fleet. */
    private void checkDeletedJobsLeaveNothing() {
        Set<String> deleted = jobs.stream().filter(job -> completed.contains(job.name())).map(StormJob::name)
                .collect(java.util.stream.Collectors.toSet());
        List<String> left = whatIsLeftAfter(Duration.ofMinutes(1), () -> {
            List<String> found = new ArrayList<>();
            for (String team : TEAMS) {
                for (String member : MEMBERS) {
                    stack.member(member).client().resources(PyTorchJob.class).inNamespace(team).list().getItems().stream()
                            .filter(copy -> deleted.contains(copy.getMetadata().getName()))
                            .forEach(copy -> found.add(member + " copy " + team + "/" + copy.getMetadata().getName()));
                }
                fleet.resources(PyTorchJob.class).inNamespace(team).list().getItems().stream()
                        .filter(object -> deleted.contains(object.getMetadata().getName()))
                        .forEach(object -> found.add("fleet object " + team + "/" + object.getMetadata().getName()));
                fleet.resources(dev.muster.model.queue.QueueUnit.class).inNamespace(team).list().getItems().stream()
                        .filter(unit -> deleted.contains(unit.getMetadata().getName()))
                        .forEach(unit -> found.add("QueueUnit " + team + "/" + unit.getMetadata().getName()));
            }
            return found;
        });
        left.forEach(thing -> violations.add("a minute after the storm, a deleted job still has its " + thing));
    }

    /** What is still left once nothing is, or once the time is up: read again every half second until then. */
    private static List<String> whatIsLeftAfter(Duration within, java.util.function.Supplier<List<String>> leftNow) {
        java.util.concurrent.atomic.AtomicReference<List<String>> left = new java.util.concurrent.atomic.AtomicReference<>(List.of());
        try {
            org.awaitility.Awaitility.await().atMost(within).pollInterval(Duration.ofMillis(500)).until(() -> {
                left.set(leftNow.get());
                return left.get().isEmpty();
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // What is left is each one a violation, reported by the caller.
        }
        return left.get();
    }

    private static Map<String, List<JobEvent>> byJob(List<JobEvent> events) {
        return events.stream().collect(java.util.stream.Collectors.groupingBy(event -> event.job().namespace() + "/" + event.job().name()));
    }

    private static long distinctIds(List<JobEvent> eventsOfTheJob, EventType type) {
        return eventsOfTheJob == null ? 0 : eventsOfTheJob.stream().filter(event -> EventType.of(event.data()) == type).map(JobEvent::id).distinct().count();
    }
}
