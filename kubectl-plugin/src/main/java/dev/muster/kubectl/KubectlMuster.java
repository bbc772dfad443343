package dev.muster.kubectl;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.member.MemberPodRow;
import dev.muster.model.time.HumanDuration;

/**
 * {@code kubectl muster}: the fleet's multi-cluster views, as the vendor's {@code kubectl amc} gives them.
 * Exit status: 0 when it printed what was asked, 1 when Muster could not answer it (unreachable, not found),
 * 64 for a command line it does not understand.
 */
public final class KubectlMuster {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 64;
    /** The file the local stack writes beside the fleet's kubeconfig, saying where its services listen. */
    static final String ENDPOINTS_FILE = "muster-endpoints.properties";
    static final String DEFAULT_STATUS_URL = "http://127.0.0.1:8083";
    static final String DEFAULT_KAFKA = "127.0.0.1:9092";
    static final String DEFAULT_QUEUE_URL = "http://127.0.0.1:8081";
    static final String DEFAULT_PLACEMENT_URL = "http://127.0.0.1:8082";
    private static final com.fasterxml.jackson.databind.ObjectMapper PRETTY_JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    private static final String HELP = """
            kubectl muster: Muster's multi-cluster views of the fleet.

              kubectl muster get pytorchjob -M [-n NAMESPACE | -A] [-o json|yaml]
                  every member's PyTorchJobs: NAME CLUSTER STATE AGE ADOPTION
              kubectl muster get pod -M [-n NAMESPACE | -A] [-o json|yaml]
                  the training pods on every member: NAME CLUSTER READY STATUS RESTARTS AGE
              kubectl muster get pytorchjob NAME -m CLUSTER [-n NAMESPACE] [-o json|yaml]
                  one member's copy of a job
              kubectl muster explain pytorchjob NAME [-n NAMESPACE] [-o json|yaml]
                  where the job waits and why, where it runs, and for each cluster whether it would fit now
              kubectl muster queues [-o json|yaml]
                  each quota node's use of each resource against its min and max, and what waits under it
              kubectl muster submit -f FILE [-n NAMESPACE] [--kafka BOOTSTRAP] [--kafka-config FILE]
                  submit a PyTorchJob on the Kafka path (muster.job.submissions); -f - reads standard input;
                  on a secured cluster --kafka-config (or $MUSTER_KAFKA_CONFIG) names a Kafka client properties
                  file (security.protocol, sasl.*, ssl.*) and the job goes to the SASL user's own inbox,
                  muster.job.submissions.USER

            Muster is found at --status-url URL (--queue-url, --kafka), else $MUSTER_STATUS_URL ($MUSTER_QUEUE_URL,
            $MUSTER_KAFKA), else the local stack's muster-endpoints.properties beside $KUBECONFIG, else
            http://127.0.0.1:8083 (http://127.0.0.1:8081, 127.0.0.1:9092).
            """;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;
    private final Clock clock;

    KubectlMuster(PrintStream out, PrintStream err, Map<String, String> environment, Clock clock) {
        this.out = out;
        this.err = err;
        this.environment = Map.copyOf(environment);
        this.clock = clock;
    }

    public static void main(String[] args) {
        System.exit(new KubectlMuster(System.out, System.err, System.getenv(), Clock.systemUTC()).run(args));
    }

    /** What one command line asks. */
    record Request(String verb, String resource, String name, boolean allMembers, String cluster, String namespace,
                   boolean allNamespaces, String output, String statusUrl, String file, String kafka, String queueUrl,
                   String kafkaConfig) {
    }

    int run(String[] args) {
        Request request;
        try {
            request = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println("See 'kubectl muster --help'.");
            return USAGE;
        }
        if (request == null) {
            out.print(HELP);
            return OK;
        }
        try {
            if (request.verb().equals("submit")) {
                submit(request);
                return OK;
            }
            if (request.verb().equals("explain")) {
                explain(request);
                return OK;
            }
            if (request.verb().equals("queues")) {
                ViewsClient queue = ViewsClient.queueService(endpoint(request.queueUrl(), "MUSTER_QUEUE_URL", "queue", DEFAULT_QUEUE_URL), token());
                printQuota(queue.quotaUsage(), queue.configInForce(), request);
                return OK;
            }
            ViewsClient views = ViewsClient.statusSync(statusUrl(request), token());
            if (request.resource().equals("pytorchjob") && request.name() != null) {
                printJob(views.job(request.cluster(), namespace(request), request.name()), request);
            } else if (request.resource().equals("pytorchjob")) {
                printJobs(views.jobs(request.allNamespaces() ? null : namespace(request)), request);
            } else {
                printPods(views.pods(request.allNamespaces() ? null : namespace(request)), request);
            }
            return OK;
        } catch (CommandFailedException e) {
            err.println("error: " + e.getMessage());
            return FAILED;
        }
    }

    static Request parse(String[] args) {
        List<String> positional = new ArrayList<>();
        boolean allMembers = false;
        boolean allNamespaces = false;
        String cluster = null;
        String namespace = null;
        String output = null;
        String statusUrl = null;
        String file = null;
        String kafka = null;
        String queueUrl = null;
        String kafkaConfig = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case "-M", "--all-members" -> allMembers = true;
                case "-A", "--all-namespaces" -> allNamespaces = true;
                case "-m", "--member" -> cluster = value(args, ++i, arg);
                case "-n", "--namespace" -> namespace = value(args, ++i, arg);
                case "-o", "--output" -> output = value(args, ++i, arg);
                case "--status-url" -> statusUrl = value(args, ++i, arg);
                case "-f", "--filename" -> file = value(args, ++i, arg);
                case "--kafka" -> kafka = value(args, ++i, arg);
                case "--kafka-config" -> kafkaConfig = value(args, ++i, arg);
                case "--queue-url" -> queueUrl = value(args, ++i, arg);
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown flag: " + arg);
                    }
                    positional.add(arg);
                }
            }
        }
        if (positional.isEmpty()) {
            return null;
        }
        if (positional.get(0).equals("explain")) {
            if (positional.size() != 3 || !List.of("pytorchjob", "pytorchjobs", "pytorchjob.kubeflow.org").contains(positional.get(1))) {
                throw new IllegalArgumentException("explain takes one job: explain pytorchjob NAME [-n NAMESPACE]");
            }
            requireOutput(output);
            return new Request("explain", "pytorchjob", positional.get(2), false, null, namespace, false, output, statusUrl, null, kafka,
                    queueUrl, kafkaConfig);
        }
        if (positional.get(0).equals("queues")) {
            if (positional.size() > 1) {
                throw new IllegalArgumentException("queues takes no arguments");
            }
            requireOutput(output);
            return new Request("queues", null, null, false, null, null, false, output, statusUrl, null, kafka, queueUrl, kafkaConfig);
        }
        if (positional.get(0).equals("submit")) {
            if (file == null || positional.size() > 1) {
                throw new IllegalArgumentException("submit takes one manifest: submit -f FILE (or -f - for standard input)");
            }
            return new Request("submit", "pytorchjob", null, false, null, namespace, false, null, statusUrl, file, kafka, queueUrl, kafkaConfig);
        }
        if (!positional.get(0).equals("get")) {
            throw new IllegalArgumentException("unknown command \"" + positional.get(0) + "\"; kubectl muster knows: get, explain, queues, submit");
        }
        if (positional.size() < 2 || positional.size() > 3) {
            throw new IllegalArgumentException("get needs a resource (pytorchjob or pod) and at most one name");
        }
        String resource = switch (positional.get(1)) {
            case "pytorchjob", "pytorchjobs", "pytorchjob.kubeflow.org" -> "pytorchjob";
            case "pod", "pods", "po" -> "pod";
            default -> throw new IllegalArgumentException("the server doesn't have a resource type \"" + positional.get(1)
                    + "\" in Muster's views; use pytorchjob or pod");
        };
        String name = positional.size() == 3 ? positional.get(2) : null;
        requireOutput(output);
        if (name != null && (cluster == null || !resource.equals("pytorchjob"))) {
            throw new IllegalArgumentException("a job by name is read from one member: get pytorchjob NAME -m CLUSTER");
        }
        if (name == null && !allMembers) {
            throw new IllegalArgumentException("Muster's views span the members: add -M (or name one job and -m CLUSTER)");
        }
        if (allNamespaces && namespace != null) {
            throw new IllegalArgumentException("-A and -n cannot be used together");
        }
        return new Request("get", resource, name, allMembers, cluster, namespace, allNamespaces, output, statusUrl, null, null, queueUrl, null);
    }

    private static void requireOutput(String output) {
        if (output != null && !List.of("json", "yaml").contains(output)) {
            throw new IllegalArgumentException("unable to match a printer suitable for the output format \"" + output
                    + "\", allowed formats are: json, yaml");
        }
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            throw new IllegalArgumentException("flag needs an argument: " + flag);
        }
        return args[index];
    }

    private static String namespace(Request request) {
        return request.namespace() == null ? "default" : request.namespace();
    }

    /** The flag, the environment, the local stack's endpoints file beside the kubeconfig, or the local default. */
    String statusUrl(Request request) {
        return endpoint(request.statusUrl(), "MUSTER_STATUS_URL", "status-sync", DEFAULT_STATUS_URL);
    }

    /** Kafka's bootstrap servers, found the same way as status sync. */
    String kafka(Request request) {
        return endpoint(request.kafka(), "MUSTER_KAFKA", "kafka", DEFAULT_KAFKA);
    }

    /**
     * The bearer token of the kubeconfig's current user ({@code $KUBECONFIG}'s first file, else {@code ~/.kube/config}):
     * what Muster's views are asked with, as kubectl asks the API server.
     */
    private Optional<String> token() {
        String kubeconfig = environment.getOrDefault("KUBECONFIG", "").split(java.io.File.pathSeparator)[0];
        Path file = !kubeconfig.isEmpty() ? Path.of(kubeconfig)
                : environment.containsKey("HOME") ? Path.of(environment.get("HOME"), ".kube", "config") : null;
        return file == null ? Optional.empty() : dev.muster.model.json.Kubeconfig.bearerToken(file, null);
    }

    /** A Kafka client properties file for a secured cluster: the flag, else the environment; none for an open cluster. */
    private Path kafkaConfig(Request request) {
        String file = request.kafkaConfig() != null ? request.kafkaConfig() : environment.get("MUSTER_KAFKA_CONFIG");
        return file == null || file.isBlank() ? null : Path.of(file);
    }

    private String endpoint(String flag, String variable, String key, String fallback) {
        if (flag != null) {
            return flag;
        }
        if (environment.containsKey(variable)) {
            return environment.get(variable);
        }
        String kubeconfig = environment.getOrDefault("KUBECONFIG", "").split(java.io.File.pathSeparator)[0];
        if (!kubeconfig.isEmpty()) {
            Path endpoints = Path.of(kubeconfig).toAbsolutePath().resolveSibling(ENDPOINTS_FILE);
            if (Files.isRegularFile(endpoints)) {
                try (Reader reader = Files.newBufferedReader(endpoints)) {
                    Properties properties = new Properties();
                    properties.load(reader);
                    Optional<String> value = Optional.ofNullable(properties.getProperty(key));
                    if (value.isPresent()) {
                        return value.get();
                    }
                } catch (IOException e) {
                    err.println("warning: cannot read " + endpoints + ": " + e.getMessage());
                }
            }
        }
        return fallback;
    }

    /** Reads the manifest and produces its submission on the Kafka path. */
    private void submit(Request request) throws CommandFailedException {
        String text;
        try {
            text = request.file().equals("-") ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    : Files.readString(Path.of(request.file()));
        } catch (IOException e) {
            throw new CommandFailedException("cannot read " + request.file() + ": " + e.getMessage());
        }
        PyTorchJob job;
        try {
            job = Manifests.read(text, PyTorchJob.class);
        } catch (RuntimeException e) {
            throw new CommandFailedException(request.file() + " is not a PyTorchJob manifest: " + e.getMessage());
        }
        if (job.getMetadata() == null || job.getMetadata().getName() == null) {
            throw new CommandFailedException(request.file() + ": metadata.name is required");
        }
        if (request.namespace() != null) {
            job.getMetadata().setNamespace(request.namespace());
        } else if (job.getMetadata().getNamespace() == null) {
            job.getMetadata().setNamespace("default");
        }
        String uid = KafkaSubmitter.of(kafka(request), kafkaConfig(request)).submit(job);
        out.println("pytorchjob.kubeflow.org/" + job.getMetadata().getName() + " submitted on the Kafka path (uid " + uid + ")");
    }

    private void printJobs(List<MemberJobRow> rows, Request request) {
        printRows(rows, request, List.of("NAME", "CLUSTER", "STATE", "AGE", "ADOPTION"), MemberJobRow::namespace,
                row -> List.of(row.name(), row.cluster(), row.state(), age(row.created()), row.adoption()));
    }

    private void printPods(List<MemberPodRow> rows, Request request) {
        printRows(rows, request, List.of("NAME", "CLUSTER", "READY", "STATUS", "RESTARTS", "AGE"), MemberPodRow::namespace,
                row -> List.of(row.name(), row.cluster(), row.ready(), row.status(), Integer.toString(row.restarts()), age(row.created())));
    }

    /** Rows as JSON or YAML when asked, else as a table, with a NAMESPACE column first across namespaces. */
    private <T> void printRows(List<T> rows, Request request, List<String> headers, java.util.function.Function<T, String> namespace,
                               java.util.function.Function<T, List<String>> cells) {
        if (request.output() != null) {
            out.print(request.output().equals("json") ? json(rows) : Manifests.toYaml(rows));
            return;
        }
        if (rows.isEmpty()) {
            err.println(noResources(request));
            return;
        }
        List<String> columns = new ArrayList<>(headers);
        if (request.allNamespaces()) {
            columns.add(0, "NAMESPACE");
        }
        TablePrinter table = new TablePrinter(columns);
        for (T row : rows) {
            List<String> line = new ArrayList<>(cells.apply(row));
            if (request.allNamespaces()) {
                line.add(0, namespace.apply(row));
            }
            table.row(line);
        }
        table.print(out);
    }

    /** What one explanation gathers, for -o json|yaml. */
    record Explanation(dev.muster.model.queue.JobQueueView queue, List<dev.muster.model.placement.ClusterFitRow> clusters,
                       List<MemberJobRow> runsOn) {
    }

    /** Where the job stands in its queue and why, where it runs, and for each cluster whether it would fit now. */
    private void explain(Request request) throws CommandFailedException {
        String namespace = namespace(request);
        Optional<dev.muster.model.queue.JobQueueView> queued = ViewsClient.queueService(
                endpoint(request.queueUrl(), "MUSTER_QUEUE_URL", "queue", DEFAULT_QUEUE_URL), token()).queued(namespace, request.name());
        List<MemberJobRow> runsOn = ViewsClient.statusSync(statusUrl(request), token()).jobs(namespace).stream()
                .filter(row -> row.name().equals(request.name())).toList();
        if (queued.isEmpty() && runsOn.isEmpty()) {
            throw new CommandFailedException("Muster knows no PyTorchJob " + namespace + "/" + request.name()
                    + " (not in its queues, on no member)");
        }
        List<dev.muster.model.placement.ClusterFitRow> clusters = queued.isEmpty() ? List.of()
                : ViewsClient.placement(endpoint(null, "MUSTER_PLACEMENT_URL", "placement", DEFAULT_PLACEMENT_URL), token())
                        .fit(queued.get().job(), queued.get().policy());
        if (request.output() != null) {
            Explanation explanation = new Explanation(queued.orElse(null), clusters, runsOn);
            out.print(request.output().equals("json") ? json(explanation) : Manifests.toYaml(explanation));
            return;
        }
        out.println("Job:      " + namespace + "/" + request.name());
        if (queued.isPresent()) {
            var view = queued.get();
            String where = view.queue() == null ? "" : " in queue " + view.queue() + (view.position() > 0 ? ", position " + view.position() : "");
            out.println("State:    " + view.state() + where);
            if (view.reason() != null) {
                out.println("Reason:   " + view.reason() + (view.message() == null ? "" : ": " + view.message()));
            }
            out.println("Demand:   " + view.demand());
        } else {
            out.println("State:    not held by the queue service (admitted without queueing, or finished)");
        }
        out.println("Runs on:  " + (runsOn.isEmpty() ? "no member yet"
                : String.join(", ", runsOn.stream().map(row -> row.cluster() + " (" + (row.state().isEmpty() ? "-" : row.state()) + ")").toList())));
        if (!clusters.isEmpty()) {
            out.println();
            out.println("Clusters, best first, were it placed now:");
            TablePrinter table = new TablePrinter(List.of("CLUSTER", "FITS", "WHY"));
            for (var row : clusters) {
                table.row(List.of(row.cluster(), row.fits() ? "yes" : "no", row.fits()
                        ? "partly used GPU nodes after: " + row.partialGpuNodes() + ", GPUs free: " + row.freeGpu().stripTrailingZeros().toPlainString()
                        : row.reason()));
            }
            table.print(out);
        }
    }

    private void printQuota(List<dev.muster.model.quota.QuotaUsageRow> rows, dev.muster.model.quota.ConfigInForce config, Request request) {
        if (request.output() == null && config.treeInForce() == null) {
            err.println(config.refused().isEmpty() ? "No quota tree: apply an ElasticQuotaTree first."
                    : "No quota tree in force: every change applied so far was refused.");
        } else {
            printRows(rows, request, List.of("NODE", "QUEUE", "WAITING", "RESOURCE", "USED", "MIN", "MAX"), row -> "",
                    row -> List.of(row.node(), row.queue(), Integer.toString(row.waiting()), row.resource(), row.used(),
                            row.min().isEmpty() ? "-" : row.min(), row.max().isEmpty() ? "-" : row.max()));
        }
        if (request.output() != null) {
            return;
        }
        if (config.treeInForce() != null) {
            out.println();
            out.println("In force: ElasticQuotaTree " + config.treeInForce());
        }
        for (dev.muster.model.quota.ConfigInForce.Refusal refusal : config.refused()) {
            out.println("Refused:  " + refusal.kind() + " " + refusal.namespace() + "/" + refusal.name() + " as applied at " + refusal.at()
                    + ": " + String.join("; ", refusal.reasons()));
        }
    }

    private void printJob(PyTorchJob job, Request request) {
        if ("json".equals(request.output())) {
            out.print(json(job));
        } else if ("yaml".equals(request.output())) {
            out.print(Manifests.toYaml(job));
        } else {
            printJobs(List.of(MemberJobRow.of(request.cluster(), job)), new Request(request.verb(), request.resource(), null, true,
                    request.cluster(), request.namespace(), false, null, request.statusUrl(), null, null, null, null));
        }
    }

    /** Indented, as kubectl prints JSON. */
    private static String json(Object value) {
        try {
            return PRETTY_JSON.writeValueAsString(PRETTY_JSON.readTree(Manifests.toJson(value))) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot print JSON", e);
        }
    }

    private static String noResources(Request request) {
        return request.allNamespaces() ? "No resources found on any member."
                : "No resources found in " + namespace(request) + " namespace on any member.";
    }

    private String age(String created) {
        if (created == null || created.isEmpty()) {
            return "<unknown>";
        }
        try {
            return HumanDuration.of(Duration.between(Instant.parse(created), clock.instant()));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }
}
