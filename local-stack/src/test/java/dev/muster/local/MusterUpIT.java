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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
            // The summary after the ready line may arrive in more than one read: wait for its last line.
            await().atMost(START).until(() -> output.text().contains("Next: the seed walkthrough") || !up.isAlive());
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
            Kubectl kubectl = new Kubectl(home.resolve("fleet.kubeconfig"), MUSTER.resolveSibling("bin"));
            kubectl.run("apply", "-f", EXAMPLES.resolve("elastic-quota-tree.yaml").toString(),
                    "-f", EXAMPLES.resolve("propagation-policy-gang-queue.yaml").toString()).succeeded();
            assertThat(kubectl.run("apply", "-f", EXAMPLES.resolve("pytorch-job.yaml").toString()).succeeded())
                    .contains("pytorchjob.kubeflow.org/pytorch-test created");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(kubectl.run("get", "pytorchjob").succeeded())
                    .as("kubectl get pytorchjob; logs in %s", home.resolve("logs")).containsPattern("pytorch-test\\s+Running\\s+\\d+s"));
            assertThat(kubectl.run("get", "queue", "-n", "kube-queue").succeeded()).containsPattern("root-child-2-\\w+\\s+\\d+s")
                    .containsPattern("root-\\w{5}\\s+\\d+s");
            // The job's Events are written from the event log, its status from the member: Running may be shown first.
            Pattern binding = Pattern.compile("ScheduleBindingSucceed\\s+\\S+\\s+default-scheduler\\s+Binding has been scheduled successfully\\."
                    + " Result: \\{(gpu-[abc]):0,\\[\\{master 1\\} \\{worker 2\\}\\]\\}");
            Matcher bound = await().atMost(Duration.ofSeconds(60)).until(
                    () -> binding.matcher(kubectl.run("describe", "pytorchjob", "pytorch-test").succeeded()), Matcher::find);
            // The multi-cluster views through the plugin: the job and all three pods on the cluster the binding names.
            String cluster = bound.group(1);
            assertThat(kubectl.run("muster", "get", "pytorchjob", "-M").succeeded())
                    .containsPattern("pytorch-test\\s+" + cluster + "\\s+Running\\s+\\d+s\\s+Y");
            String pods = kubectl.run("muster", "get", "pod", "-M").succeeded();
            assertThat(pods.lines().skip(1).toList()).hasSize(3).allSatisfy(line -> assertThat(line)
                    .matches("pytorch-test-(master|worker)-\\d\\s+" + cluster + "\\s+1/1\\s+Running\\s+0\\s+\\d+s"));
            assertThat(kubectl.run("muster", "get", "pytorchjob", "pytorch-test", "-m", cluster, "-o", "yaml").succeeded())
                    .contains("kind: PyTorchJob", "pod-group.scheduling.sigs.k8s.io/min-available");

            // The Kafka path in one line: the job shows on the fleet, and waits behind the first (child-2 admits one job at a time).
            Path second = Files.writeString(home.resolve("second.yaml"), Files.readString(EXAMPLES.resolve("pytorch-job.yaml"))
                    .replace("name: pytorch-test\n  namespace", "name: pytorch-kafka\n  namespace"));
            assertThat(kubectl.run("muster", "submit", "-f", second.toString()).succeeded())
                    .contains("pytorchjob.kubeflow.org/pytorch-kafka submitted on the Kafka path");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(kubectl.run("get", "pytorchjob").succeeded())
                    .containsPattern("pytorch-kafka\\s+Queuing\\s+\\d+s"));
            assertThat(kubectl.run("get", "pytorchjob", "pytorch-kafka", "-o", "jsonpath={.status.conditions[-1:].message}").succeeded())
                    .isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use");
            assertThat(kubectl.run("muster", "explain", "pytorchjob", "pytorch-kafka").succeeded())
                    .contains("State:    Queuing in queue root-child-2-", ", position 1",
                            "Reason:   QuotaExceeded: root/child-2: kube-queue/max-jobs 1/1 in use", "Runs on:  no member yet")
                    .containsPattern(cluster + "\\s+yes\\s+partly used GPU nodes after");
            assertThat(kubectl.run("muster", "queues").succeeded())
                    .containsPattern("root/child-2\\s+root-child-2-\\w+\\s+1\\s+-\\s+kube-queue/max-jobs\\s+1\\s+-\\s+1");

            // The first job's programs finish: it succeeds, child-2's one job is free, and the waiting job runs. A watch sees it happen.
            try (Kubectl.Running watch = kubectl.start("get", "pytorchjob", "-w")) {
                await().atMost(Duration.ofSeconds(30)).until(() -> watch.printed().contains("pytorch-kafka"));
                assertThat(muster(home, "complete", "pytorch-test")).matches("default/pytorch-test: 3 pods exit 0 on " + cluster
                        + " \\(pytorch-test-master-0, pytorch-test-worker-0, pytorch-test-worker-1\\)\n");
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(watch.printed())
                        .containsPattern("\\npytorch-test\\s+Succeeded\\s+\\d+[sm]\\n").containsPattern("\\npytorch-kafka\\s+Running\\s+\\d+[sm]\\n"));
            }
            assertThat(kubectl.run("get", "pytorchjob").succeeded()).containsPattern("pytorch-test\\s+Succeeded").containsPattern("pytorch-kafka\\s+Running");
            Matcher running = Pattern.compile("pytorch-kafka\\s+(gpu-[abc])\\s+Running\\s+\\d+[sm]\\s+Y")
                    .matcher(kubectl.run("muster", "get", "pytorchjob", "-M").succeeded());
            assertThat(running.find()).as("the second job runs on one member").isTrue();
            String lost = running.group(1);

            // A fault tried by hand: the member running the second job becomes unreachable, and its copy shows as Unknown, not
            // as the Running it last reported. (What follows past the toleration, the failover, FleetFailoverIT shows.)
            assertThat(muster(home, "fault", lost, "unreachable")).isEqualTo(lost + ": unreachable\n");
            try {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(kubectl.run("muster", "get", "pytorchjob", "-M").succeeded())
                        .containsPattern("pytorch-kafka\\s+" + lost + "\\s+Unknown\\s+\\d+[sm]\\s+Y"));
            } finally {
                assertThat(muster(home, "fault", lost, "heal")).isEqualTo(lost + ": no faults\n");
            }

            // A crash tried by hand: the stack starts the service again and it carries on; a clean restart likewise.
            assertThat(muster(home, "kill", "queue-service")).isEqualTo("queue-service: killed; the stack starts it again\n");
            await().atMost(Duration.ofSeconds(90)).until(() -> output.text().contains("queue-service is running again (restart 1)"));
            // Once the new process holds the partitions again (the dead one's session ends first), its state is what it was.
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(kubectl.run("muster", "queues").succeeded())
                    .contains("root/child-2"));
            assertThat(muster(home, "restart", "placement-service")).isEqualTo("placement-service: restarted\n");
            assertThat(output.text()).as("up's output").doesNotContain("LogManager accessed before");
            // The services are reached on loopback only.
            java.util.Properties endpoints = new java.util.Properties();
            try (var reader = Files.newBufferedReader(home.resolve(LocalStack.ENDPOINTS_FILE))) {
                endpoints.load(reader);
            }
            int queuePort = java.net.URI.create(endpoints.getProperty("queue")).getPort();
            for (java.net.InetAddress address : nonLoopbackAddresses()) {
                try (java.net.Socket socket = new java.net.Socket()) {
                    socket.connect(new java.net.InetSocketAddress(address, queuePort), 2000);
                    throw new AssertionError("queue-service answers on " + address + ":" + queuePort);
                } catch (IOException expected) {
                    // refused: it listens on loopback only
                }
            }

            Process down = new ProcessBuilder(MUSTER.toString(), "down", "--home", home.toString()).redirectErrorStream(true).start();
            assertThat(down.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("Muster stopped.");
            assertThat(down.exitValue()).isZero();
            assertThat(up.waitFor(10, TimeUnit.SECONDS)).as("muster up exited").isTrue();
            assertThat(output.text()).contains("Stopping Muster", "Muster stopped.");
            assertThat(home.resolve("muster.pid")).doesNotExist();
            assertThat(up.descendants().filter(ProcessHandle::isAlive)).as("processes left behind").isEmpty();
            // A clean stop closes the watches first: none is reported stopped, nor started again, while a service shuts down.
            try (java.util.stream.Stream<Path> logs = Files.list(home.resolve("logs"))) {
                for (Path log : logs.filter(file -> file.toString().endsWith("-service.log")).toList()) {
                    assertThat(Files.readAllLines(log)).as(log.toString())
                            .noneMatch(line -> line.contains("(Shutdown thread)") && line.contains("the watch stopped"));
                }
            }
        } finally {
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
        }
    }

    /** The machine's own addresses other than loopback (none on a machine without a network). */
    private static java.util.List<java.net.InetAddress> nonLoopbackAddresses() throws java.net.SocketException {
        return java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(network -> java.util.Collections.list(network.getInetAddresses()).stream())
                .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress()).toList();
    }

    /** Runs {@code ./muster <arguments>} against the stack in the home folder; what it printed, when it succeeded. */
    private static String muster(Path home, String... arguments) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(MUSTER.toString()));
        command.addAll(java.util.List.of(arguments));
        command.addAll(java.util.List.of("--home", home.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("./muster %s said: %s", String.join(" ", arguments), printed).isZero();
        return printed;
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
