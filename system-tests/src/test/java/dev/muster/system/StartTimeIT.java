package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.testing.kubectl.Kubectl;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A waiting job's start-time estimate end to end, with the real kubectl and the plugin: a queue that admits one job at a
 * time runs a job that says it runs 30 minutes; the next job is expected to start when it ends, and says so in
 * {@code kubectl muster explain}, in the ETA of {@code kubectl muster queues}, in its waiting condition and on its QueueUnit.
 */
class StartTimeIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String NAMESPACE = "eta";
    private static final Path SETUP = Path.of("..", "examples", "reclaim", "setup.yaml");
    private static final Pattern TOLD = Pattern.compile("expected to start at about (\\S+) ");
    private static MusterStack stack;
    private static KubernetesClient fleet;
    private static Kubectl kubectl;
    @TempDir
    static Path manifests;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = SharedStack.get();
        fleet = stack.fleet.connect();
        kubectl = new Kubectl(stack.fleet.kubeconfig(), Path.of("..", "bin"));
        // The walkthrough's tree, with a queue of its own that admits one job at a time.
        Path tree = manifests.resolve("setup.yaml");
        Files.writeString(tree, Files.readString(SETUP).replace("    children:\n    - name: child-2\n",
                "    children:\n    - {name: eta, max: {kube-queue/max-jobs: 1}, namespaces: [" + NAMESPACE + "]}\n    - name: child-2\n"));
        kubectl.run("create", "namespace", NAMESPACE).succeeded();
        kubectl.run("apply", "-f", tree.toString()).succeeded();
        fleet.resource(Seed.queuePolicy(NAMESPACE)).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(stack.quotaUsed("kube-queue/max-jobs").orElseThrow())
                .as("the tree is in force").containsKey("root/eta"));
    }

    @AfterAll
    static void deleteTheJobs() throws Exception {
        SharedStack.leave(stack, fleet, NAMESPACE, List.of("runs-30-min", "waits"));
    }

    @Test
    void aJobWaitingBehindOneThatRuns30MinutesIsExpectedToStartInAbout30Minutes() throws Exception {
        PyTorchJob running = Seed.job(NAMESPACE, "runs-30-min");
        running.getMetadata().setAnnotations(Map.of("muster.dev/expected-duration", "30m"));
        Instant submitted = Instant.now();
        fleet.resource(running).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(condition("runs-30-min")).as("logs: %s", stack.logs())
                .map(JobCondition::type).contains("Running"));
        fleet.resource(Seed.job(NAMESPACE, "waits")).create();

        // The waiting condition and the QueueUnit carry the estimate once the queue has worked it out and told it.
        Instant told = await().atMost(DEADLINE).until(() -> condition("waits").map(JobCondition::message).map(TOLD::matcher)
                .filter(Matcher::find).map(found -> Instant.parse(found.group(1))), Optional::isPresent).orElseThrow();
        assertThat(condition("waits")).map(JobCondition::type).contains("Queuing");
        assertThat(told).as("the running job's end, to the minute").isBetween(submitted.plus(Duration.ofMinutes(29)),
                Instant.now().plus(Duration.ofMinutes(30)));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(kubectl.run("get", "queueunit", "waits", "-n", NAMESPACE, "-o", "wide")
                .succeeded()).contains("ESTIMATED START").contains(told.toString().substring(0, 16)));

        String explained = kubectl.run("muster", "explain", "pytorchjob", "waits", "-n", NAMESPACE).succeeded();
        assertThat(explained).containsPattern("Starts: +in about (29|30) min \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\), after 1 job ends");

        String queues = kubectl.run("muster", "queues").succeeded();
        assertThat(queues.lines().filter(line -> line.startsWith("root/eta ")).findFirst()).as(queues)
                .hasValueSatisfying(row -> assertThat(row).containsPattern("root/eta\\s+\\S+\\s+1\\s+in (29|30)m\\s"));
    }

    private static Optional<JobCondition> condition(String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(NAMESPACE).withName(name).get();
        return job == null || job.getStatus() == null ? Optional.empty() : job.getStatus().currentCondition();
    }
}
