package dev.muster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.muster.testing.kubectl.Kubectl;

/**
 * {@code ./muster up} and {@code ./muster down} as a user runs them, on the default fleet, with the seed's
 * walkthrough played through the real kubectl in between.
 */
class MusterUpIT {

    private static final Path MUSTER = Path.of("..", "muster").toAbsolutePath().normalize();
    private static final Duration START = Duration.ofSeconds(180);
    private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();

    @Test
    void upStartsAStackWhereTheSeedWalkthroughRunsAndDownStopsIt(@TempDir Path home) throws Exception {
        Process up = new ProcessBuilder(MUSTER.toString(), "up", "--home", home.toString(), "--port-base", "0")
                .redirectErrorStream(true).start();
        Output output = Output.of(up);
        try {
            await().atMost(START).until(() -> output.text().contains(MusterUp.READY) || !up.isAlive());
            assertThat(output.text()).as("muster up said").contains(MusterUp.READY)
                    .contains("export KUBECONFIG=" + home.resolve("fleet.kubeconfig"))
                    .contains("gpu-a", "gpu-b", "gpu-c");
            assertThat(home.resolve("members")).isDirectoryContaining("glob:**/gpu-a.kubeconfig");

            Process again = new ProcessBuilder(MUSTER.toString(), "up", "--home", home.toString(), "--port-base", "0")
                    .redirectErrorStream(true).start();
            assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(again.exitValue()).isEqualTo(MusterUp.ALREADY_RUNNING);
            assertThat(new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("Muster is already running");

            // The seed's walkthrough, with the real kubectl and the examples a user applies.
            Kubectl kubectl = new Kubectl(home.resolve("fleet.kubeconfig"));
            kubectl.run("apply", "-f", EXAMPLES.resolve("elastic-quota-tree.yaml").toString(),
                    "-f", EXAMPLES.resolve("propagation-policy-gang-queue.yaml").toString()).succeeded();
            assertThat(kubectl.run("apply", "-f", EXAMPLES.resolve("pytorch-job.yaml").toString()).succeeded())
                    .contains("pytorchjob.kubeflow.org/pytorch-test created");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(kubectl.run("get", "pytorchjob").succeeded())
                    .as("kubectl get pytorchjob; logs in %s", home.resolve("logs")).containsPattern("pytorch-test\\s+Running\\s+\\d+s"));
            assertThat(kubectl.run("get", "queue", "-n", "kube-queue").succeeded()).containsPattern("root-child-2-\\w+\\s+\\d+s")
                    .containsPattern("root-\\w{5}\\s+\\d+s");
            String described = kubectl.run("describe", "pytorchjob", "pytorch-test").succeeded();
            Matcher bound = Pattern.compile("ScheduleBindingSucceed\\s+\\S+\\s+default-scheduler\\s+Binding has been scheduled successfully\\."
                    + " Result: \\{(gpu-[abc]):0,\\[\\{master 1\\} \\{worker 2\\}\\]\\}").matcher(described);
            assertThat(bound.find()).as("describe shows the binding: %s", described).isTrue();
            // All three pods on the cluster the binding names, as the members report them.
            Matcher statusSync = Pattern.compile("status-sync-service\\s+(http://\\S+)").matcher(output.text());
            assertThat(statusSync.find()).isTrue();
            JsonNode pods = new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(statusSync.group(1) + "/api/v1/members/pods")).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertThat(pods.findValuesAsText("name")).containsExactlyInAnyOrder("pytorch-test-master-0", "pytorch-test-worker-0", "pytorch-test-worker-1");
            assertThat(pods.findValuesAsText("cluster")).containsOnly(bound.group(1));

            Process down = new ProcessBuilder(MUSTER.toString(), "down", "--home", home.toString()).redirectErrorStream(true).start();
            assertThat(down.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("Muster stopped.");
            assertThat(down.exitValue()).isZero();
            assertThat(up.waitFor(10, TimeUnit.SECONDS)).as("muster up exited").isTrue();
            assertThat(output.text()).contains("Stopping Muster", "Muster stopped.");
            assertThat(home.resolve("muster.pid")).doesNotExist();
            assertThat(up.descendants().filter(ProcessHandle::isAlive)).as("processes left behind").isEmpty();
        } finally {
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
        }
    }

    /** A process's output as it comes, read on a thread of its own so the process never blocks on a full pipe. */
    private static final class Output {

        private final StringBuilder text = new StringBuilder();

        static Output of(Process process) {
            Output output = new Output();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        System.out.println("[muster up] " + line);
                        synchronized (output) {
                            output.text.append(line).append('\n');
                        }
                    }
                } catch (IOException e) {
                    // the process is gone; what it said is kept
                }
            }, "muster-up-output");
            reader.setDaemon(true);
            reader.start();
            return output;
        }

        synchronized String text() {
            return text.toString();
        }
    }
}
