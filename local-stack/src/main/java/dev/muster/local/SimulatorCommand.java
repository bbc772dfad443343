package dev.muster.local;

import java.io.IOException;
import java.io.Reader;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.json.MusterJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./muster fault}, {@code complete}, {@code restart} and {@code kill}: what happens to the simulated members and
 * the services of a running local stack, through the simulator's admin API, for trying failover, queueing and crashes by hand. Exit status 0 when done, 1
 * when the stack is not running or refused (with its reason), 64 for a wrong command line; {@code --help} on each.
 */
@Command(name = "./muster", mixinStandardHelpOptions = true, subcommands = {SimulatorCommand.Fault.class, SimulatorCommand.Complete.class,
        SimulatorCommand.Restart.class, SimulatorCommand.Kill.class},
        description = "What happens to the simulated members and the services of a running local stack.")
public final class SimulatorCommand {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Option(names = "--home", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
            description = "The home of the running stack (default: .muster).")
    Path home;

    /** One command: the admin API path it asks for, and how the answer reads. */
    interface AdminCall {

        String path();

        String describe(JsonNode answer);
    }

    public static void main(String[] args) {
        SimulatorCommand root = new SimulatorCommand();
        CommandLine commandLine = new CommandLine(root);
        AdminCall call;
        String path;
        try {
            CommandLine.ParseResult parsed = commandLine.parseArgs(args);
            if (CommandLine.printHelpIfRequested(parsed)) {
                return;
            }
            if (!parsed.hasSubcommand()) {
                throw new ParameterException(commandLine, "fault, complete, restart or kill?");
            }
            call = (AdminCall) parsed.subcommand().commandSpec().userObject();
            path = call.path();
        } catch (ParameterException e) {
            System.err.println("muster: " + e.getMessage());
            e.getCommandLine().usage(System.err);
            System.exit(MusterUp.USAGE);
            return;
        }
        Path home = root.home != null ? root.home.toAbsolutePath()
                : LocalStackSettings.defaults(Path.of(System.getProperty("muster.repository", "")).toAbsolutePath()).home();
        try {
            System.out.println(call.describe(post(simulator(home), path)));
        } catch (CommandFailedException e) {
            System.err.println("muster: " + e.getMessage());
            System.exit(MusterUp.FAILED);
        }
    }

    /** The admin API path a command line asks for (a usage error is a {@link ParameterException}). */
    static String adminPath(String... args) {
        CommandLine.ParseResult parsed = new CommandLine(new SimulatorCommand()).parseArgs(args);
        return ((AdminCall) parsed.subcommand().commandSpec().userObject()).path();
    }

    @Command(name = "fault", mixinStandardHelpOptions = true, description = "Something happens to a simulated member cluster.",
            footer = {"", "What:", "  unreachable, heal         its API does not answer, or answers again",
                    "  slow LATENCY              every request waits, e.g. 2s",
                    "  scheduler-stop, scheduler-start",
                    "                            its gang scheduler stops binding, or binds again",
                    "  node-not-ready NODE, node-ready NODE",
                    "  reservations-stop, reservations-start",
                    "                            reservations are not confirmed, or are again",
                    "  list-fail RESOURCE [COUNT]",
                    "                            the next COUNT lists of RESOURCE fail (default 1)"})
    static final class Fault implements AdminCall {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "CLUSTER", description = "The member cluster, e.g. gpu-a.")
        String cluster;

        @Parameters(index = "1", paramLabel = "WHAT", description = "What happens to it (see below).")
        String fault;

        @Parameters(index = "2..*", paramLabel = "ARG", description = "What that takes.")
        List<String> rest = new ArrayList<>();

        @Override
        public String path() {
            String clusterPath = "/clusters/" + encode(cluster);
            return switch (fault) {
                case "unreachable", "heal" -> none(clusterPath + "/" + fault);
                case "scheduler-stop" -> none(clusterPath + "/scheduler/stop");
                case "scheduler-start" -> none(clusterPath + "/scheduler/start");
                case "slow" -> clusterPath + "/slow?latency=" + encode(one("a latency such as 2s"));
                case "node-not-ready" -> clusterPath + "/nodes/" + encode(one("a node")) + "/not-ready";
                case "node-ready" -> clusterPath + "/nodes/" + encode(one("a node")) + "/ready";
                case "reservations-stop" -> none(clusterPath + "/reservations/stop");
                case "reservations-start" -> none(clusterPath + "/reservations/start");
                case "list-fail" -> {
                    if (rest.isEmpty() || rest.size() > 2) {
                        throw new ParameterException(spec.commandLine(), "list-fail takes a resource such as pytorchjobs, and how many lists fail"
                                + " (default 1)");
                    }
                    yield clusterPath + "/lists/" + encode(rest.get(0)) + "/fail?count=" + encode(rest.size() == 2 ? rest.get(1) : "1");
                }
                default -> throw new ParameterException(spec.commandLine(), "unknown fault " + fault);
            };
        }

        @Override
        public String describe(JsonNode answer) {
            return faults(answer);
        }

        private String none(String path) {
            if (!rest.isEmpty()) {
                throw new ParameterException(spec.commandLine(), fault + " takes nothing more, got " + rest);
            }
            return path;
        }

        private String one(String what) {
            if (rest.size() != 1) {
                throw new ParameterException(spec.commandLine(), fault + " takes " + what);
            }
            return rest.get(0);
        }
    }

    @Command(name = "complete", mixinStandardHelpOptions = true, description = "A simulated job's programs finish: its pods exit 0.")
    static final class Complete implements AdminCall {

        @Parameters(index = "0", paramLabel = "JOB", description = "The job's name.")
        String job;

        @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "The job's namespace (default: default).")
        String namespace = "default";

        @Override
        public String path() {
            return "/jobs/" + encode(namespace) + "/" + encode(job) + "/complete";
        }

        @Override
        public String describe(JsonNode answer) {
            return completed(answer);
        }
    }

    /** {@code restart} and {@code kill}: what a service the stack runs goes through. */
    abstract static class ServiceCall implements AdminCall {

        @Parameters(index = "0", paramLabel = "SERVICE", description = "queue-service, placement-service or status-sync-service.")
        String service;

        private final String verb;
        private final String done;

        ServiceCall(String verb, String done) {
            this.verb = verb;
            this.done = done;
        }

        @Override
        public String path() {
            return "/services/" + encode(service) + "/" + verb;
        }

        @Override
        public String describe(JsonNode answer) {
            return answer.path("service").asText() + ": " + done;
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true, description = "Stop a service cleanly and start it again.")
    static final class Restart extends ServiceCall {
        Restart() {
            super("restart", "restarted");
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true, description = "Kill a service (SIGKILL), as a crash would; the stack starts it again.")
    static final class Kill extends ServiceCall {
        Kill() {
            super("kill", "killed; the stack starts it again");
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static URI simulator(Path home) {
        Path endpoints = home.resolve(LocalStack.ENDPOINTS_FILE);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(endpoints)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new CommandFailedException("Muster is not running (no " + endpoints + "); ./muster up starts it");
        }
        String url = properties.getProperty(LocalStack.SIMULATOR_ENDPOINT);
        if (url == null) {
            throw new CommandFailedException(endpoints + " names no simulator admin API; restart with ./muster up");
        }
        return URI.create(url);
    }

    private static JsonNode post(URI simulator, String path) {
        HttpRequest request = HttpRequest.newBuilder(simulator.resolve(path)).timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = MusterJson.json().readTree(response.body());
            if (response.statusCode() != 200) {
                throw new CommandFailedException(body.path("error").asText(response.body()));
            }
            return body;
        } catch (ConnectException e) {
            throw new CommandFailedException("Muster is not running (nothing answers at " + simulator + "); ./muster up starts it");
        } catch (IOException e) {
            throw new CommandFailedException("the simulator at " + simulator + " did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted");
        }
    }

    /** e.g. {@code default/pytorch-test: 3 pods exit 0 on gpu-a (pytorch-test-master-0, ...)}. */
    static String completed(JsonNode answer) {
        StringBuilder text = new StringBuilder(answer.path("job").asText()).append(':');
        Iterator<Map.Entry<String, JsonNode>> clusters = answer.path("completed").fields();
        while (clusters.hasNext()) {
            Map.Entry<String, JsonNode> cluster = clusters.next();
            List<String> pods = new ArrayList<>();
            cluster.getValue().forEach(pod -> pods.add(pod.asText()));
            // In name order, as kubectl lists them: the member answers in the order its pods were created, which varies.
            pods.sort(null);
            text.append(' ').append(pods.size()).append(pods.size() == 1 ? " pod exits" : " pods exit").append(" 0 on ").append(cluster.getKey())
                    .append(" (").append(String.join(", ", pods)).append(')');
        }
        return text.toString();
    }

    /** e.g. {@code gpu-a: unreachable} or {@code gpu-a: no faults}. */
    static String faults(JsonNode cluster) {
        JsonNode faults = cluster.path("faults");
        List<String> active = new ArrayList<>();
        if (faults.path("unreachable").asBoolean()) {
            active.add("unreachable");
        }
        if (faults.path("latencyMillis").asLong() > 0) {
            active.add("slow (" + faults.path("latencyMillis").asLong() + " ms per request)");
        }
        faults.path("notReadyNodes").forEach(node -> active.add("node " + node.asText() + " not ready"));
        if (faults.path("schedulerStopped").asBoolean()) {
            active.add("scheduler stopped");
        }
        if (faults.path("reservationsUnconfirmed").asBoolean()) {
            active.add("reservations not confirmed");
        }
        faults.path("failingLists").fields().forEachRemaining(list -> active.add("the next " + list.getValue().asInt() + " lists of "
                + list.getKey() + " fail"));
        return cluster.path("name").asText() + ": " + (active.isEmpty() ? "no faults" : String.join(", ", active));
    }

    /** A command that could not be done, with the reason to show. */
    private static final class CommandFailedException extends RuntimeException {
        CommandFailedException(String message) {
            super(message);
        }
    }
}
