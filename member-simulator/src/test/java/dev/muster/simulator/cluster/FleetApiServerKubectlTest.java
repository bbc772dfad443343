package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.json.Manifests;
import dev.muster.model.queue.Queue;
import dev.muster.testing.kubectl.Kubectl;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/** The fleet API server as the real kubectl sees it: the seed's commands, with the output a real API server gives. */
class FleetApiServerKubectlTest extends FleetApiServerTests {

    @BeforeAll
    static void applyExamples() throws Exception {
        kubectl.run("apply", "-f", EXAMPLES.resolve("elastic-quota-tree.yaml").toString(),
                "-f", EXAMPLES.resolve("propagation-policy-gang-queue.yaml").toString(),
                "-f", EXAMPLES.resolve("pytorch-job.yaml").toString()).succeeded();
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get();
        String now = Instant.now().toString();
        job.setStatus(new PyTorchJobStatus(List.of(new JobCondition("Created", "True", "PyTorchJobCreated", "created", now, now),
                new JobCondition("Running", "True", "PyTorchJobRunning", "running", now, now)), null, now, null, null, null));
        fleet.resources(PyTorchJob.class).inNamespace("default").resource(job).updateStatus();
        PyTorchJob other = fleet.resources(PyTorchJob.class).inNamespace("default").resource(Seed.job("default", "other")).create();
        event(job, "binding", "ScheduleBindingSucceed", "Binding has been scheduled successfully. Result: {gpu-a:0,[{master 1} {worker 2}]}");
        event(other, "other-queued", "Queued", "waiting in queue root-child-2");
        fleet.resources(Queue.class).inNamespace("kube-queue").resource(Manifests.read("""
                apiVersion: scheduling.x-k8s.io/v1alpha1
                kind: Queue
                metadata: {name: root-child-2-v5zxz, namespace: kube-queue}
                spec: {queuePolicy: Priority}
                """, Queue.class)).create();
    }

    private static void event(PyTorchJob job, String name, String reason, String message) {
        fleet.v1().events().inNamespace("default").resource(new EventBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewInvolvedObject().withApiVersion("kubeflow.org/v1").withKind("PyTorchJob").withName(job.getMetadata().getName())
                .withNamespace("default").withUid(job.getMetadata().getUid()).endInvolvedObject()
                .withReason(reason).withMessage(message).withType("Normal").withNewSource("default-scheduler", null)
                .withLastTimestamp(Instant.now().toString()).withFirstTimestamp(Instant.now().toString()).withCount(1).build()).create();
    }

    @Test
    void discoveryNamesEveryResourceKubectlUsers() {
        String resources = kubectl.run("api-resources").succeeded();

        assertThat(resources).contains("pytorchjobs", "kubeflow.org/v1", "propagationpolicies", "elasticquotatrees", "queues",
                "queueunits", "events");
    }

    @Test
    void getPytorchjobShowsTheStateColumnFromTheDefinitionsPrinterColumns() {
        List<String> lines = kubectl.run("get", "pytorchjob").succeeded().lines().toList();

        assertThat(lines.get(0)).matches("NAME\\s+STATE\\s+AGE");
        assertThat(lines).anyMatch(line -> line.matches("pytorch-test\\s+Running\\s+\\d+s"));
    }

    @Test
    void describeShowsTheJobsOwnEventsFoundByFieldSelector() {
        String described = kubectl.run("describe", "pytorchjob", "pytorch-test").succeeded();

        assertThat(described).contains("ScheduleBindingSucceed", "Result: {gpu-a:0,[{master 1} {worker 2}]}", "default-scheduler")
                .doesNotContain("waiting in queue root-child-2");
    }

    @Test
    void getEventsPrintsKubectlsColumnsAndHonoursFieldSelectors() {
        List<String> all = kubectl.run("get", "events").succeeded().lines().toList();
        List<String> selected = kubectl.run("get", "events", "--field-selector", "involvedObject.name=other").succeeded().lines().toList();

        assertThat(all.get(0)).matches("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE");
        assertThat(all).anyMatch(line -> line.contains("pytorchjob/pytorch-test") && line.contains("ScheduleBindingSucceed"));
        assertThat(selected).hasSize(2).last().asString().contains("pytorchjob/other", "Queued");
    }

    @Test
    void aBadFieldSelectorIsRefusedWithTheReason() {
        Kubectl.Result result = kubectl.run("get", "events", "--field-selector", "involvedObject.name");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains("field selector");
    }

    @Test
    void getQueueListsTheKubeQueueObjectsWithTheirAge() {
        List<String> lines = kubectl.run("get", "queue", "-n", "kube-queue").succeeded().lines().toList();

        assertThat(lines.get(0)).matches("NAME\\s+AGE");
        assertThat(lines.get(1)).matches("root-child-2-v5zxz\\s+\\d+s");
    }

    @Test
    void jsonOutputStillCarriesTheWholeObject() {
        String json = kubectl.run("get", "pytorchjob", "pytorch-test", "-o", "json").succeeded();

        PyTorchJob job = Manifests.read(json, PyTorchJob.class);
        assertThat(job.getSpec().pytorchReplicaSpecs()).containsKeys("Master", "Worker");
        assertThat(job.getStatus().currentCondition()).map(JobCondition::type).contains("Running");
    }

    @Test
    void getWatchStreamsEachChangeAsARowWithTheStateColumn() throws Exception {
        fleet.resources(PyTorchJob.class).inNamespace("watching").resource(Seed.job("watching", "first")).create();
        try (Kubectl.Running watch = kubectl.start("get", "pytorchjob", "-n", "watching", "-w")) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(watch.printed()).containsPattern("NAME\\s+STATE\\s+AGE\\n"
                    + "first\\s+\\d+s\\n"));

            PyTorchJob second = fleet.resources(PyTorchJob.class).inNamespace("watching").resource(Seed.job("watching", "second")).create();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(watch.printed()).containsPattern("\\nsecond\\s+\\d+s\\n"));
            String now = Instant.now().toString();
            second.setStatus(new PyTorchJobStatus(List.of(new JobCondition("Running", "True", "PyTorchJobRunning", "running", now, now)),
                    null, now, null, null, null));
            fleet.resources(PyTorchJob.class).inNamespace("watching").resource(second).updateStatus();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(watch.printed()).containsPattern("\\nsecond\\s+Running\\s+\\d+s\\n"));
            assertThat(watch.isAlive()).as("kubectl still watching; it printed: %s", watch.printed()).isTrue();
            assertThat(watch.printed().lines().filter(line -> line.startsWith("NAME"))).as("one header").hasSize(1);
            assertThat(watch.printed().lines().filter(line -> line.startsWith("first"))).as("no change to first, one row").hasSize(1);

            fleet.resources(PyTorchJob.class).inNamespace("watching").withName("first").delete();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(watch.printed().lines().filter(line -> line.startsWith("first")))
                    .as("the deletion shows as a last row").hasSize(2));
        }
    }

    @Test
    void clientsThatWatchOverWebSocketsStillGetEveryEvent() {
        List<String> seen = new CopyOnWriteArrayList<>();
        try (Watch watch = fleet.resources(PyTorchJob.class).inNamespace("sockets").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, PyTorchJob job) {
                seen.add(action + " " + job.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            fleet.resources(PyTorchJob.class).inNamespace("sockets").resource(Seed.job("sockets", "one")).create();
            fleet.resources(PyTorchJob.class).inNamespace("sockets").withName("one").delete();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(seen).containsExactly("ADDED one", "DELETED one"));
        }
    }
}
