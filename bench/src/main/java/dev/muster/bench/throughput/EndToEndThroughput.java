package dev.muster.bench.throughput;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import dev.muster.local.HarnessLogging;
import dev.muster.local.LocalStack;
import dev.muster.local.LocalStackSettings;
import dev.muster.local.MusterService;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.simulator.cluster.AccessLog;
import dev.muster.testing.kafka.KafkaBroker;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;

/**
 * Muster end to end through Kafka, side by side with Kafka itself. Starts the local stack (a real broker, the
 * three services as processes, simulated members), then for each rate submits jobs on the submissions topic
 * and waits for their {@code dev.muster.job.bound} events; on the same broker, with the same message size and
 * transaction settings, a relay of three trivial hops carries the same load, then as much as it can (its ceiling: the most
 * these two cores and this broker relay of this message). Prints both, their ratios at each rate and Muster's most
 * bound against the relay's ceiling, how long
 * after a step's last binding the fleet API shows its last job Running (status sync's mirror keeping pace, or not),
 * and the CPU each process spent per bound job until then (what says how far a bigger machine, or members on other
 * machines, would go).
 * <pre>
 * java -cp bench/target/bench.jar dev.muster.bench.throughput.EndToEndThroughput [--rates 25,50,100,200,400] [--seconds 20]
 *      [--warmup-rate 10] [--warmup-seconds 150] [--pipelines muster,relay] [--transactions tuned|default] [--quota-tree true]
 *      [--ceiling-messages 20000]
 * </pre>
 * Run from the repository root after {@code ./mvnw -B -ntp install -DskipTests}: it runs the packaged services.
 */
public final class EndToEndThroughput {

    private static final String BOUND = "\"type\":\"dev.muster.job.bound\"";
    private static final int NODES_PER_MEMBER = 20;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** How long the fleet view may trail a step's last binding before the step is reported without it. */
    private static final Duration FLEET_PATIENCE = Duration.ofSeconds(180);
    /** An offered rate no pipeline here reaches: records are produced as fast as the producer takes them. */
    private static final double FULL_SPEED = 1e9;
    /** This JVM in the CPU table: what it spends is the simulated members', the fleet API's and the load generator's. */
    private static final String MEMBERS_AND_LOAD = "members, fleet API and load";
    /**
     * The transactional producers' settings that matter for latency. A transaction's first send waits until the
     * previous transaction's markers are written; the client retries that wait with {@code retry.backoff.ms}
     * (100 ms by default, growing to a second), which costs most of a hop's time under Kafka's defaults.
     */
    static final Map<String, String> TUNED = Map.of("retry.backoff.ms", "5", "retry.backoff.max.ms", "20", "linger.ms", "0");
    static final Map<String, String> KAFKA_DEFAULTS = Map.of("retry.backoff.ms", "100", "retry.backoff.max.ms", "1000", "linger.ms", "5");
    /** The transactional outgoing channels of each service. */
    private static final Map<MusterService, List<String>> CHANNELS = Map.of(MusterService.QUEUE, List.of("admissions"),
            MusterService.PLACEMENT, List.of("placements"));

    private EndToEndThroughput() {
    }

    public static void main(String[] args) throws Exception {
        HarnessLogging.install();
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        double[] rates = Arrays.stream(options.getOrDefault("rates", "25,50,100,200,400").split(",")).mapToDouble(Double::parseDouble).toArray();
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "20"));
        double warmupRate = Double.parseDouble(options.getOrDefault("warmup-rate", "10"));
        int warmupSeconds = Integer.parseInt(options.getOrDefault("warmup-seconds", "150"));
        int ceilingMessages = Integer.parseInt(options.getOrDefault("ceiling-messages", "20000"));
        Path home = Files.createDirectories(Path.of(options.getOrDefault("home", "bench/target/end-to-end")));
        Path fleet = home.resolve("fleet.yaml");
        // Three members with room for every job of the run (nodeRoom). Plain members
        // (Kubernetes 1.27, no reservations) by default: a job is bound once created; with --members reserving, once
        // the member's scheduler has confirmed its reservations, which the simulated scheduler does slowly under load.
        boolean reserving = "reserving".equals(options.getOrDefault("members", "plain"));
        String versions = reserving ? "kubernetesVersion: 1.30.2, schedulerVersion: 6.8.1" : "kubernetesVersion: 1.27.3, schedulerVersion: 6.7.0";
        String template = Files.readString(Path.of("examples/pytorch-job.yaml"));
        PyTorchJob seed = Manifests.read(template, PyTorchJob.class);
        int jobsInRun = (int) Math.round(warmupRate * warmupSeconds);
        for (double rate : rates) {
            jobsInRun += (int) Math.round(rate * seconds);
        }
        String room = nodeRoom(Manifests.read(template, PyTorchJob.class), jobsInRun);
        StringBuilder members = new StringBuilder("clusters:\n");
        for (String name : List.of("load-a", "load-b", "load-c")) {
            members.append("- {name: ").append(name).append(", ").append(versions).append(", nodePools: [{name: cpu, count: ").append(NODES_PER_MEMBER)
                    .append(", allocatable: ").append(room).append("}]}\n");
        }
        Files.writeString(fleet, members);
        boolean withMuster = options.getOrDefault("pipelines", "muster,relay").contains("muster");
        boolean quotaTree = Boolean.parseBoolean(options.getOrDefault("quota-tree", "false"));
        Map<String, String> tuning = "default".equals(options.get("transactions")) ? KAFKA_DEFAULTS : TUNED;
        System.out.println("Producer settings of the transactional hops: " + tuning + ("default".equals(options.get("transactions"))
                ? " (Kafka's defaults)" : " (as the services ship)"));
        Map<MusterService, Map<String, String>> serviceTuning = new HashMap<>();
        for (MusterService service : MusterService.values()) {
            Map<String, String> properties = new HashMap<>();
            tuning.forEach((name, value) -> CHANNELS.getOrDefault(service, List.of()).forEach(channel ->
                    properties.put("mp.messaging.outgoing." + channel + "." + name, value)));
            serviceTuning.put(service, properties);
        }
        LocalStackSettings settings = new LocalStackSettings(home, fleet, Path.of(""), 0, Duration.ofSeconds(180), serviceTuning);
        try (AutoCloseable running = withMuster ? LocalStack.start(settings, step -> System.out.println("starting " + step)) : KafkaBroker.start()) {
            LocalStack stack = running instanceof LocalStack local ? local : null;
            KafkaBroker broker = stack != null ? stack.broker() : (KafkaBroker) running;
            String bootstrap = broker.bootstrapServers();
            if (stack != null) {
                try (KubernetesClient client = stack.fleet().connect()) {
                    client.resources(PropagationPolicy.class).inNamespace("default").resource(Manifests.read(Files.readString(Path.of(quotaTree
                            ? "examples/propagation-policy-gang-queue.yaml" : "examples/propagation-policy-gang.yaml")), PropagationPolicy.class)).create();
                    if (quotaTree) {
                        // The example's tree with room for every job: its queue and QueueUnits, never its limit.
                        client.resources(ElasticQuotaTree.class).inNamespace("kube-system").resource(Manifests.read(Files.readString(
                                Path.of("examples/elastic-quota-tree.yaml")).replace("kube-queue/max-jobs: 1 ", "kube-queue/max-jobs: 1000000 "),
                                ElasticQuotaTree.class)).create();
                    }
                }
            }
            broker.createTopics(TrivialRelay.TOPICS, 3);
            int size = payload(seed, "e2e-size-0").length;
            System.out.printf(Locale.ROOT, "%nMessage: a dev.muster.job.submitted event of %d bytes (the seed's PyTorchJob), keyed by job.%n", size);
            List<LoadPhase.Figures> muster = new ArrayList<>();
            List<LoadPhase.Figures> relay = new ArrayList<>();
            List<Map<String, Double>> cpuPerJob = new ArrayList<>();
            List<Duration> fleetLag = new ArrayList<>();
            List<Map<String, Double>> fleetRequests = new ArrayList<>();
            LoadPhase.Figures ceiling;
            ProcessCpu cpu = stack == null ? null : new ProcessCpu(processes(stack));
            Map<String, Object> relayTuning = new HashMap<>(tuning);
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
                 TrivialRelay ignored = new TrivialRelay(bootstrap, relayTuning)) {
                // Warm both pipelines up (class loading, first transactions, and above all the JIT: each service compiles
                // for about two minutes of CPU before its code is settled, and under saturation that never ends); not counted.
                int warmupJobs = (int) Math.round(warmupRate * warmupSeconds);
                if (stack != null) {
                    System.out.printf(Locale.ROOT, "Warming up: %d jobs at %.0f/s%n", warmupJobs, warmupRate);
                    LoadPhase.Figures warm = LoadPhase.run(producer, bootstrap, Topics.SUBMISSIONS, Topics.PLACEMENTS, warmupRate, warmupJobs,
                            id -> payload(seed, id), EndToEndThroughput::isBound, PATIENCE, "e2e-warm-");
                    System.out.printf(Locale.ROOT, "Warm-up: %d/%d bound, %.1f jobs/s, p50 %.0f ms, p99 %.0f ms%n", warm.arrived(), warm.sent(),
                            warm.throughput(), warm.p50Millis(), warm.p99Millis());
                }
                // The relay is light: the same number of messages, four times as fast.
                LoadPhase.run(producer, bootstrap, TrivialRelay.TOPICS.get(0), TrivialRelay.TOPICS.get(3), 4 * warmupRate, warmupJobs,
                        id -> payload(seed, id), value -> true, PATIENCE, "relay-warm-");
                for (double rate : rates) {
                    int count = (int) Math.round(rate * seconds);
                    String tag = String.valueOf((int) rate);
                    System.out.printf(Locale.ROOT, "Offering %d jobs at %.0f/s%n", count, rate);
                    Map<String, Duration> before = cpu == null ? Map.of() : cpu.snapshot();
                    Map<AccessLog.Access, Long> requestsBefore = AccessLog.counts();
                    LoadPhase.Figures jobs = stack == null ? LoadPhase.Figures.NONE : LoadPhase.run(producer, bootstrap, Topics.SUBMISSIONS,
                            Topics.PLACEMENTS, rate, count, id -> payload(seed, id), EndToEndThroughput::isBound, PATIENCE, "e2e-r" + tag + "-");
                    if (stack != null) {
                        // The step's CPU counts until the fleet shows its jobs: status sync and the members finish their
                        // part after the bindings, and a backlog of theirs would otherwise be paid in the next step.
                        fleetLag.add(fleetShowsRunning(stack, "e2e-r" + tag + "-" + (count - 1), FLEET_PATIENCE));
                    }
                    if (cpu != null) {
                        cpuPerJob.add(ProcessCpu.perJob(before, cpu.snapshot(), jobs.arrived()));
                        fleetRequests.add(FleetRequests.perJob(requestsBefore, AccessLog.counts(), jobs.arrived()));
                    }
                    LoadPhase.Figures messages = LoadPhase.run(producer, bootstrap, TrivialRelay.TOPICS.get(0), TrivialRelay.TOPICS.get(3), rate, count,
                            id -> payload(seed, id), value -> true, PATIENCE, "relay-r" + tag + "-");
                    muster.add(jobs);
                    relay.add(messages);
                    System.out.println(row(jobs, messages));
                }
                System.out.printf(Locale.ROOT, "The relay at full speed: %d messages%n", ceilingMessages);
                ceiling = LoadPhase.run(producer, bootstrap, TrivialRelay.TOPICS.get(0), TrivialRelay.TOPICS.get(3), FULL_SPEED, ceilingMessages,
                        id -> payload(seed, id), value -> true, PATIENCE, "relay-full-");
            }
            System.out.println();
            System.out.println(table(muster, relay, fleetLag));
            System.out.println(ceilingLine(muster, ceiling));
            if (stack != null) {
                System.out.println(cpuTable(muster, cpuPerJob));
                System.out.println(FleetRequests.table(muster.stream().map(LoadPhase.Figures::offeredRate).toList(), fleetRequests));
                try (KubernetesClient client = stack.fleet().connect()) {
                    System.out.println(FleetRequests.eventsByReason(client.v1().events().inNamespace("default").list().getItems()));
                }
                System.out.println("Memory after the run (resident set of each service process):");
                for (MusterService service : MusterService.values()) {
                    System.out.printf(Locale.ROOT, "  %-20s %6.0f MiB%n", service.artifact(), residentMib(stack.service(service).pid()));
                }
            }
        }
    }

    /**
     * What each node offers so that the members hold every job of the run at once with a quarter to spare (jobs
     * never finish here): capacity never decides, only the pipeline does. Until 2026-11-30 the nodes were fixed
     * at 512 CPUs, room for 7,660 of the seed's jobs: the default run submits 9,000, so its last step measured
     * jobs that could not be placed.
     */
    static String nodeRoom(PyTorchJob job, int jobs) {
        JobDemand demand = JobDemand.of(job);
        int nodes = 3 * NODES_PER_MEMBER;
        BigDecimal share = BigDecimal.valueOf(jobs).multiply(BigDecimal.valueOf(1.25)).divide(BigDecimal.valueOf(nodes), 0, RoundingMode.CEILING);
        long cpu = demand.total().amount("cpu").multiply(share).setScale(0, RoundingMode.CEILING).longValueExact();
        long memoryGi = demand.total().amount("memory").multiply(share).divide(BigDecimal.valueOf(1L << 30), 0, RoundingMode.CEILING).longValueExact();
        long pods = share.longValueExact() * demand.pods();
        return String.format(Locale.ROOT, "{cpu: \"%d\", memory: %dGi, pods: \"%d\"}", Math.max(cpu, 512), Math.max(memoryGi, 4096), Math.max(pods, 5000));
    }

    /** The processes of the run: the three services, the broker, and this JVM (the simulated members, the fleet API, the load generator). */
    private static Map<String, Long> processes(LocalStack stack) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (MusterService service : MusterService.values()) {
            pids.put(service.artifact(), stack.service(service).pid());
        }
        pids.put("broker", stack.broker().pid());
        pids.put(MEMBERS_AND_LOAD, ProcessHandle.current().pid());
        return pids;
    }

    private static String cpuTable(List<LoadPhase.Figures> muster, List<Map<String, Double>> cpuPerJob) {
        if (cpuPerJob.isEmpty()) {
            return "";
        }
        List<String> names = new ArrayList<>(cpuPerJob.get(0).keySet());
        StringBuilder text = new StringBuilder("CPU per bound job, in ms, by process (Muster's services and the broker are what a deployment runs):\n\n| offered |");
        names.forEach(name -> text.append(' ').append(name).append(" |"));
        text.append(" services and broker |\n|---|").append("---|".repeat(names.size() + 1)).append('\n');
        for (int i = 0; i < cpuPerJob.size(); i++) {
            Map<String, Double> row = cpuPerJob.get(i);
            text.append(String.format(Locale.ROOT, "| %.0f/s |", muster.get(i).offeredRate()));
            names.forEach(name -> text.append(String.format(Locale.ROOT, " %.1f |", row.get(name))));
            double deployed = row.entrySet().stream().filter(entry -> !entry.getKey().equals(MEMBERS_AND_LOAD)).mapToDouble(Map.Entry::getValue).sum();
            text.append(String.format(Locale.ROOT, " %.1f |%n", deployed));
        }
        return text.toString();
    }

    private static boolean isBound(byte[] value) {
        return new String(value, java.nio.charset.StandardCharsets.UTF_8).contains(BOUND);
    }

    /** The submitted event of the seed's job under a new name, keyed by that name as its UID. */
    /**
     * The seed job under another name, as its submission event. The manifest is read once and its spec shared: reading
     * YAML for each job cost the load generator more CPU a job than some services spend, counted with the members'.
     */
    private static byte[] payload(PyTorchJob seed, String id) {
        PyTorchJob job = new PyTorchJob();
        job.setMetadata(new ObjectMetaBuilder(seed.getMetadata()).withName(id).build());
        job.setSpec(seed.getSpec());
        return EventSerde.serialize(JobEvent.create("/muster/bench", new JobRef("default", id, id), Instant.now(), new JobSubmitted(job)));
    }

    private static String row(LoadPhase.Figures jobs, LoadPhase.Figures messages) {
        return String.format(Locale.ROOT, "%8.0f/s | Muster %5d/%-5d %7.1f jobs/s  p50 %7.1f  p95 %7.1f  p99 %7.1f ms | relay %7.1f msgs/s  p50 %6.1f"
                        + "  p95 %6.1f  p99 %6.1f ms | ratio %.2f", messages.offeredRate(), jobs.arrived(), jobs.sent(), jobs.throughput(), jobs.p50Millis(),
                jobs.p95Millis(), jobs.p99Millis(), messages.throughput(), messages.p50Millis(), messages.p95Millis(), messages.p99Millis(),
                jobs.throughput() / messages.throughput());
    }

    private static String table(List<LoadPhase.Figures> muster, List<LoadPhase.Figures> relay, List<Duration> fleetLag) {
        StringBuilder text = new StringBuilder("| offered | Muster jobs/s | bound | p50 ms | p95 ms | p99 ms | fleet shows the last Running |"
                + " relay msgs/s | p50 ms | p95 ms | p99 ms | throughput ratio | p99 ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < muster.size(); i++) {
            LoadPhase.Figures jobs = muster.get(i);
            LoadPhase.Figures messages = relay.get(i);
            text.append(String.format(Locale.ROOT, "| %.0f/s | %.1f | %d/%d | %.0f | %.0f | %.0f | %s | %.1f | %.0f | %.0f | %.0f | %.2f | %.1f× |%n",
                    messages.offeredRate(), jobs.throughput(), jobs.arrived(), jobs.sent(), jobs.p50Millis(), jobs.p95Millis(), jobs.p99Millis(),
                    i < fleetLag.size() ? lag(fleetLag.get(i)) : "-", messages.throughput(), messages.p50Millis(), messages.p95Millis(),
                    messages.p99Millis(), jobs.throughput() / messages.throughput(), jobs.p99Millis() / messages.p99Millis()));
        }
        return text.toString();
    }

    /** The relay's ceiling, and Muster's most bound against it: the throughput ratio at saturation. */
    static String ceilingLine(List<LoadPhase.Figures> muster, LoadPhase.Figures ceiling) {
        String relay = String.format(Locale.ROOT, "Kafka's three-hop relay at full speed: %.0f msgs/s (%d/%d through, p50 %.0f ms, p99 %.0f ms).",
                ceiling.throughput(), ceiling.arrived(), ceiling.sent(), ceiling.p50Millis(), ceiling.p99Millis());
        return muster.stream().filter(jobs -> jobs.arrived() > 0).max(java.util.Comparator.comparingDouble(LoadPhase.Figures::throughput))
                .map(most -> relay + String.format(Locale.ROOT, " Muster's most bound: %.1f jobs/s (%.0f/s offered), %.3f of the relay's ceiling.",
                        most.throughput(), most.offeredRate(), most.throughput() / ceiling.throughput()))
                .orElse(relay);
    }

    private static String lag(Duration lag) {
        return lag == null ? "not in " + FLEET_PATIENCE.toSeconds() + " s" : String.format(Locale.ROOT, "+%.1f s", lag.toMillis() / 1000.0);
    }

    /**
     * How long after the step's last binding the fleet API showed the step's last submitted job Running: its pods
     * started on the member and status sync mirrored it (the fleet view a user reads); null when not within the
     * patience. Jobs bind in parallel, so the last submitted is a sample of the step's end, not always its last.
     */
    private static Duration fleetShowsRunning(LocalStack stack, String job, Duration patience) throws IOException {
        long start = System.nanoTime();
        try (KubernetesClient fleet = stack.fleet().connect()) {
            fleet.resources(PyTorchJob.class).inNamespace("default").withName(job).waitUntilCondition(shown -> shown != null
                    && shown.getStatus() != null && shown.getStatus().currentCondition().filter(condition -> "Running".equals(condition.type())).isPresent(),
                    patience.toMillis(), TimeUnit.MILLISECONDS);
            Duration lag = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf(Locale.ROOT, "          the fleet shows %s Running %.1f s after the step's last binding%n", job, lag.toMillis() / 1000.0);
            return lag;
        } catch (KubernetesClientTimeoutException e) {
            System.out.printf(Locale.ROOT, "          the fleet does not show %s Running %d s after the step's last binding%n", job, patience.toSeconds());
            return null;
        }
    }

    private static double residentMib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}
