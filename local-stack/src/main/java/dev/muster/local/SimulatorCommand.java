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

/**
 * {@code ./muster fault}, {@code complete}, {@code restart} and {@code kill}: what happens to the simulated members and
 * the services of a running local stack, through the simulator's admin API, for trying failover, queueing and crashes by hand. Exit status 0 when done, 1
 * when the stack is not running or refused (with its reason), 64 for a wrong command line.
 */
public final class SimulatorCommand {

    static final String USAGE = """
            usage: ./muster fault CLUSTER unreachable|heal|slow LATENCY|scheduler-stop|scheduler-start|node-not-ready NODE|node-ready NODE
                                        |reservations-stop|reservations-start|list-fail RESOURCE [COUNT] [--home DIR]
                   ./muster complete JOB [-n NAMESPACE] [--home DIR]   the job's programs finish: its pods exit 0
                   ./muster restart SERVICE [--home DIR]   stop a service cleanly and start it again (queue-service, placement-service, status-sync-service)
                   ./muster kill SERVICE [--home DIR]      kill a service (SIGKILL), as a crash would; it is started again""";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SimulatorCommand() {
    }

    public static void main(String[] args) {
        Path home = LocalStackSettings.defaults(Path.of(System.getProperty("muster.repository", "")).toAbsolutePath()).home();
        List<String> words = new ArrayList<>();
        String namespace = "default";
        for (int i = 0; i < args.length; i++) {
            if (("--home".equals(args[i]) || "-n".equals(args[i]) || "--namespace".equals(args[i])) && i + 1 < args.length) {
                if ("--home".equals(args[i])) {
                    home = Path.of(args[++i]).toAbsolutePath();
                } else {
                    namespace = args[++i];
                }
            } else {
                words.add(args[i]);
            }
        }
        String path;
        try {
            path = adminPath(words, namespace);
        } catch (IllegalArgumentException e) {
            System.err.println("muster: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(MusterUp.USAGE);
            return;
        }
        try {
            JsonNode answer = post(simulator(home), path);
            System.out.println("complete".equals(words.get(0)) ? completed(answer) : "fault".equals(words.get(0)) ? faults(answer)
                    : answer.path("service").asText() + ": " + ("kill".equals(words.get(0)) ? "killed; the stack starts it again" : "restarted"));
        } catch (CommandFailedException e) {
            System.err.println("muster: " + e.getMessage());
            System.exit(MusterUp.FAILED);
        }
    }

    /** The admin API path a command line asks for. */
    static String adminPath(List<String> words, String namespace) {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("fault or complete?");
        }
        String command = words.get(0);
        if ("complete".equals(command)) {
            if (words.size() != 2) {
                throw new IllegalArgumentException("complete takes one job name");
            }
            return "/jobs/" + encode(namespace) + "/" + encode(words.get(1)) + "/complete";
        }
        if ("restart".equals(command) || "kill".equals(command)) {
            if (words.size() != 2) {
                throw new IllegalArgumentException(command + " takes one service: queue-service, placement-service or status-sync-service");
            }
            return "/services/" + encode(words.get(1)) + "/" + command;
        }
        if (!"fault".equals(command)) {
            throw new IllegalArgumentException("unknown command " + command);
        }
        if (words.size() < 3) {
            throw new IllegalArgumentException("fault takes a cluster and what happens to it");
        }
        String cluster = "/clusters/" + encode(words.get(1));
        String fault = words.get(2);
        List<String> rest = words.subList(3, words.size());
        return switch (fault) {
            case "unreachable", "heal" -> none(rest, fault, cluster + "/" + fault);
            case "scheduler-stop" -> none(rest, fault, cluster + "/scheduler/stop");
            case "scheduler-start" -> none(rest, fault, cluster + "/scheduler/start");
            case "slow" -> cluster + "/slow?latency=" + encode(one(rest, fault, "a latency such as 2s"));
            case "node-not-ready" -> cluster + "/nodes/" + encode(one(rest, fault, "a node")) + "/not-ready";
            case "node-ready" -> cluster + "/nodes/" + encode(one(rest, fault, "a node")) + "/ready";
            case "reservations-stop" -> none(rest, fault, cluster + "/reservations/stop");
            case "reservations-start" -> none(rest, fault, cluster + "/reservations/start");
            case "list-fail" -> {
                if (rest.isEmpty() || rest.size() > 2) {
                    throw new IllegalArgumentException("list-fail takes a resource such as pytorchjobs, and how many lists fail (default 1)");
                }
                yield cluster + "/lists/" + encode(rest.get(0)) + "/fail?count=" + encode(rest.size() == 2 ? rest.get(1) : "1");
            }
            default -> throw new IllegalArgumentException("unknown fault " + fault);
        };
    }

    private static String none(List<String> rest, String fault, String path) {
        if (!rest.isEmpty()) {
            throw new IllegalArgumentException(fault + " takes nothing more, got " + rest);
        }
        return path;
    }

    private static String one(List<String> rest, String fault, String what) {
        if (rest.size() != 1) {
            throw new IllegalArgumentException(fault + " takes " + what);
        }
        return rest.get(0);
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
