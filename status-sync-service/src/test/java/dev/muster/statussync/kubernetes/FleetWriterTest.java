package dev.muster.statussync.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.statussync.core.fleet.FleetWrite;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Fleet status writes against the fleet API server the local stack runs: what lands on the job a user reads. */
class FleetWriterTest {

    @TempDir
    static Path folder;
    private static FleetApiServer server;
    private static KubernetesClient fleet;

    @BeforeAll
    static void startFleet() throws Exception {
        server = FleetApiServer.start(folder);
        fleet = server.connect();
    }

    @AfterAll
    static void stopFleet() {
        fleet.close();
        server.close();
    }

    private static JobRef submit(String name) {
        PyTorchJob created = fleet.resources(PyTorchJob.class).inNamespace("default").resource(Seed.job("default", name)).create();
        return new JobRef("default", name, created.getMetadata().getUid());
    }

    private static PyTorchJobStatus status(String type) {
        String now = Instant.now().toString();
        return new PyTorchJobStatus(List.of(new JobCondition(type, "True", "Pytorch" + type, "the job is " + type, now, now)), null, null, null, now, null);
    }

    private static PyTorchJob read(JobRef job) {
        return fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
    }

    /** The type of the fleet job's current condition. */
    private static Optional<String> condition(JobRef job) {
        return read(job).getStatus().currentCondition().map(JobCondition::type);
    }

    /** A job submitted to the fleet whose status the writer has written once, as it does for every job it mirrors. */
    private static JobRef submittedAndRunning(FleetWriter writer, String name) {
        JobRef job = submit(name);
        assertThat(writer.status(job, status("Running"))).isTrue();
        return job;
    }

    private static void delete(String name) {
        fleet.resources(PyTorchJob.class).inNamespace("default").withName(name).withGracePeriod(0).delete();
        fleet.resources(PyTorchJob.class).inNamespace("default").withName(name).waitUntilCondition(gone -> gone == null, 10, TimeUnit.SECONDS);
    }

    @Test
    void eachStatusInTurnIsWhatTheFleetJobReads() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("statuses");
        for (String type : List.of("Created", "Running", "Succeeded")) {
            PyTorchJobStatus status = status(type);
            assertThat(writer.status(job, status)).isTrue();
            assertThat(read(job).getStatus()).isEqualTo(status);
        }
        assertThat(read(job).getSpec()).isEqualTo(Seed.job("default", "statuses").getSpec());
    }

    @Test
    void aQueueUnitShowsTheEstimatedStartAndLosesItWhenTheJobIsDequeued() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("estimated");
        Instant estimate = Instant.parse("2026-12-04T14:32:00.543280429Z");
        dev.muster.model.resource.ResourceList demand = dev.muster.model.resource.ResourceList.parse(java.util.Map.of("cpu", "4"));

        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Enqueued", "full (position 1)", Instant.now(), estimate));
        assertThat(unit(job).getStatus().estimatedStartTime()).as("to the second").isEqualTo("2026-12-04T14:32:00Z");

        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Dequeued", "admitted", Instant.now(), null));
        assertThat(unit(job).getStatus().phase()).isEqualTo("Dequeued");
        assertThat(unit(job).getStatus().estimatedStartTime()).isNull();
    }

    private static dev.muster.model.queue.QueueUnit unit(JobRef job) {
        return fleet.resources(dev.muster.model.queue.QueueUnit.class).inNamespace(job.namespace()).withName(job.name()).get();
    }

    @Test
    void theStatusOfAJobWrittenBeforeIsWrittenInOneRequestWithoutReadingTheJob() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submittedAndRunning(writer, "one-request");
        int before = server.requestCount();

        assertThat(writer.status(job, status("Succeeded"))).isTrue();

        assertThat(server.requestCount() - before).as("requests to the fleet API").isEqualTo(1);
        assertThat(condition(job)).hasValue("Succeeded");
    }

    /**
     * A job applied with kubectl, as the queue's ingress read it: its first wait is one request, and so is each later
     * status; a job another writer changed since is read again, and what it shows is kept apart from the new wait.
     */
    @Test
    void aJobSeenWhenItWasAppliedIsWrittenInOneRequestPerStatusAndReadAgainWhenItChangedSince() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("seen");
        writer.write(new FleetWrite.ObjectSeen(job, read(job)));
        int before = server.requestCount();

        writer.write(new FleetWrite.SetCondition(job, "Queuing", "Placing", "choosing a member cluster", Instant.now()));
        assertThat(writer.status(job, status("Created"))).isTrue();
        assertThat(writer.status(job, status("Running"))).isTrue();

        assertThat(server.requestCount() - before).as("requests to the fleet API").isEqualTo(3);
        assertThat(condition(job)).hasValue("Running");

        // Someone else writes the job's status: the next wait is decided over what is there now, not over what was written.
        PyTorchJob changed = read(job);
        changed.setStatus(status("Succeeded"));
        fleet.resources(PyTorchJob.class).inNamespace("default").resource(changed).updateStatus();
        writer.write(new FleetWrite.SetCondition(job, "Queuing", "NoClusterFits", "no member cluster fits", Instant.now().plusSeconds(1)));
        assertThat(condition(job)).as("a succeeded job stays so").hasValue("Succeeded");
    }

    /** A new unit is two requests (created, then its status), each change of it one; one changed by another writer is read again. */
    @Test
    void aQueueUnitIsCreatedWithoutAReadAndChangedInOneRequest() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("unit-requests");
        writer.write(new FleetWrite.ObjectSeen(job, read(job)));
        dev.muster.model.resource.ResourceList demand = dev.muster.model.resource.ResourceList.parse(java.util.Map.of("cpu", "4"));
        int before = server.requestCount();

        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Dequeued", "admitted", Instant.now(), null));
        int created = server.requestCount() - before;
        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Running", "running on gpu-a", Instant.now(), null));

        assertThat(created).as("requests to create it").isEqualTo(2);
        assertThat(server.requestCount() - before - created).as("requests to change it").isEqualTo(1);
        assertThat(unit(job).getStatus().phase()).isEqualTo("Running");

        dev.muster.model.queue.QueueUnit other = unit(job);
        other.getMetadata().setLabels(java.util.Map.of("changed-by", "someone-else"));
        fleet.resources(dev.muster.model.queue.QueueUnit.class).inNamespace("default").resource(other).update();
        int beforeStale = server.requestCount();
        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Succeed", "done", Instant.now(), null));
        assertThat(server.requestCount() - beforeStale).as("refused as a conflict, read, written").isEqualTo(3);
        assertThat(unit(job).getStatus().phase()).as("written over the version there").isEqualTo("Succeed");

        // A user deletes the unit status sync remembers: its next phase creates it again.
        fleet.resources(dev.muster.model.queue.QueueUnit.class).inNamespace("default").withName("unit-requests").delete();
        fleet.resources(dev.muster.model.queue.QueueUnit.class).inNamespace("default").withName("unit-requests")
                .waitUntilCondition(gone -> gone == null, 10, TimeUnit.SECONDS);
        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Failed", "failed on gpu-a", Instant.now(), null));
        assertThat(unit(job).getStatus().phase()).as("created again").isEqualTo("Failed");
    }

    @Test
    void aJobReplacedByAnotherOfItsNameIsLeftAsTheNewOneIs() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submittedAndRunning(writer, "replaced");

        delete("replaced");
        JobRef replacement = submit("replaced");

        assertThat(writer.status(job, status("Failed"))).isFalse();
        assertThat(read(replacement).getStatus()).isNull();
        // The writer still writes the replacement's own status.
        assertThat(writer.status(replacement, status("Created"))).isTrue();
        assertThat(condition(replacement)).hasValue("Created");
    }

    @Test
    void aDeletedJobIsNotWrittenNorCreatedAgain() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submittedAndRunning(writer, "deleted");

        delete("deleted");

        assertThat(writer.status(job, status("Succeeded"))).isFalse();
        assertThat(read(job)).isNull();
    }
    /** A wait the queue or placement decided before the job's end, written after it, leaves the end shown. */
    @Test
    void aWaitWrittenAfterTheJobSucceededLeavesItSucceededButOneAfterAFailureIsShown() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef succeeded = submittedAndRunning(writer, "succeeded-then-waiting");
        JobRef failed = submittedAndRunning(writer, "failed-then-failing-over");
        writer.status(succeeded, status("Succeeded"));
        writer.status(failed, status("Failed"));

        writer.write(new FleetWrite.SetCondition(succeeded, "Queuing", "NoClusterFits", "no member cluster fits", Instant.now()));
        writer.write(new FleetWrite.SetCondition(failed, "Queuing", "FailingOver", "placing the job on another cluster", Instant.now()));

        assertThat(condition(succeeded)).hasValue("Succeeded");
        assertThat(condition(failed)).hasValue("Queuing");
    }

    /**
     * After a restart whose commits were lost, the queue's word on a job may be read again before placement's binding
     * (another topic): the wait it decided before the job ran does not show over the Running its member shows since;
     * a wait decided after it (a failover, a preemption) does.
     */
    @Test
    void aWaitDecidedBeforeTheJobRanLeavesItRunningButOneDecidedAfterIsShown() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        Instant queued = Instant.now().minusSeconds(30);
        JobRef job = submittedAndRunning(writer, "replayed-wait");

        writer.write(new FleetWrite.SetCondition(job, "Queuing", "QuotaExceeded", "root/team-a: nvidia.com/gpu 8/8 in use", queued));
        assertThat(condition(job)).hasValue("Running");

        writer.write(new FleetWrite.SetCondition(job, "Queuing", "FailingOver", "placing the job on another cluster", Instant.now().plusSeconds(1)));
        assertThat(condition(job)).hasValue("Queuing");
    }

    /** A job deleted on the Kafka path leaves the fleet too; one applied with kubectl under the same name is not touched. */
    @Test
    void aKafkaJobsDeletionRemovesItsFleetObjectAndNoOtherJobOfItsName() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef viaKafka = new JobRef("default", "via-kafka", java.util.UUID.randomUUID().toString());
        writer.write(new FleetWrite.CreateJob(viaKafka, dev.muster.model.job.FleetJobs.forKafkaSubmission(Seed.job("default", "via-kafka"),
                viaKafka.uid())));
        JobRef applied = submit("applied");

        writer.write(new FleetWrite.DeleteKafkaJob(viaKafka));
        writer.write(new FleetWrite.DeleteKafkaJob(new JobRef("default", "applied", java.util.UUID.randomUUID().toString())));

        fleet.resources(PyTorchJob.class).inNamespace("default").withName("via-kafka").waitUntilCondition(gone -> gone == null, 10, TimeUnit.SECONDS);
        assertThat(read(applied)).isNotNull();
    }

    /**
     * The queue's word on a job read after the job's deletion (a replay after a restart, on another topic than the
     * deletion) leaves no unit behind; a unit is owned by its job, for an API server's garbage collector.
     */
    @Test
    void aQueueUnitIsWrittenOnlyForAJobOnTheFleetApiAndIsOwnedByIt() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        dev.muster.model.resource.ResourceList demand = dev.muster.model.resource.ResourceList.parse(java.util.Map.of("cpu", "4"));
        JobRef job = submit("owned-unit");
        String objectUid = read(job).getMetadata().getUid();

        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Dequeued", "admitted", Instant.now(), null));
        assertThat(unit(job).getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(objectUid));

        writer.write(new FleetWrite.DeleteQueueUnit(job));
        delete("owned-unit");
        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Dequeued", "admitted", Instant.now(), null));
        assertThat(unit(job)).as("the unit of a deleted job").isNull();

        JobRef replacement = submit("owned-unit");
        writer.write(new FleetWrite.PutQueueUnit(job, "root-child-2", demand, 0, null, "Enqueued", "of the job before", Instant.now(), null));
        assertThat(unit(replacement)).as("the earlier job's word on the name's new job").isNull();
    }

    /** A job's Events as a user lists them: a repeat counted on its series, each occurrence once. */
    /** The writes whose answers status sync reads only the head of: what a user reads on the job, and the refusals' codes. */
    @Nested
    class HeadRequests {

        private final JobHeadRequests requests = new JobHeadRequests(fleet);

        @Test
        void aStatusPatchLandsAndItsAnswerCarriesTheJobsMetadataAndStatusButNotItsSpec() {
            JobRef job = submit("head-patched");
            String patch = VersionedPatch.of(fleet.getKubernetesSerialization(), job.uid(), null,
                    java.util.Map.of("op", "add", "path", "/status", "value", status("Running")));

            PyTorchJob answer = requests.patchStatus(job, patch);

            assertThat(read(job).getStatus().currentCondition().map(JobCondition::type)).contains("Running");
            assertThat(answer.getMetadata().getUid()).isEqualTo(job.uid());
            assertThat(answer.getMetadata().getResourceVersion()).isEqualTo(read(job).getMetadata().getResourceVersion());
            assertThat(answer.getStatus()).isEqualTo(read(job).getStatus());
            assertThat(answer.getSpec()).isNull();
        }

        @Test
        void aKafkaJobIsCreatedWholeAndItsAnswerCarriesItsLabelsAndUid() {
            PyTorchJob manifest = Seed.job("default", "head-created");
            manifest.getMetadata().setLabels(java.util.Map.of("team", "a"));
            JobRef job = new JobRef("default", "head-created", "event-uid");

            PyTorchJob answer = requests.create(job, manifest);

            PyTorchJob stored = read(job);
            assertThat(stored.getSpec()).isEqualTo(manifest.getSpec());
            assertThat(answer.getMetadata().getUid()).isEqualTo(stored.getMetadata().getUid());
            assertThat(answer.getMetadata().getLabels()).containsEntry("team", "a");
        }

        @Test
        void refusalsKeepTheServersCodeSoThatTheWriterKnowsAGoneJobFromAChangedOne() {
            JobRef gone = new JobRef("default", "head-never-there", "uid-gone");
            String anyPatch = VersionedPatch.of(fleet.getKubernetesSerialization(), null, null,
                    java.util.Map.of("op", "add", "path", "/status", "value", status("Running")));
            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(() -> requests.patchStatus(gone, anyPatch),
                    io.fabric8.kubernetes.client.KubernetesClientException.class).getCode()).isEqualTo(404);

            JobRef job = submit("head-changed");
            String stale = VersionedPatch.of(fleet.getKubernetesSerialization(), "another-uid", null,
                    java.util.Map.of("op", "add", "path", "/status", "value", status("Running")));
            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(() -> requests.patchStatus(job, stale),
                    io.fabric8.kubernetes.client.KubernetesClientException.class).getCode()).isEqualTo(422);

            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(() -> requests.create(job, Seed.job("default", "head-changed")),
                    io.fabric8.kubernetes.client.KubernetesClientException.class).getCode()).isEqualTo(409);
        }

        @Test
        void anAnswerThatIsNotAJobIsAReadableFailureNotAnEmptyJob() {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> JobHeads.read("[1, 2]".getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                    .isInstanceOf(java.io.IOException.class).hasMessageContaining("the job is not an object");
        }

        /** Read leniently, a name given as an object read as absent: the writer took its own job for another's. */
        @org.junit.jupiter.params.ParameterizedTest
        @org.junit.jupiter.params.provider.ValueSource(strings = {
                "{\"metadata\": {\"name\": {\"a\": 1}, \"namespace\": \"default\"}}",
                "{\"metadata\": {\"name\": \"j\", \"uid\": 42}}",
                "{\"metadata\": {\"name\": \"j\", \"resourceVersion\": [\"1\"]}}",
                "{\"metadata\": {\"name\": \"j\", \"generation\": \"3\"}}",
                "{\"metadata\": {\"name\": \"j\", \"deletionTimestamp\": true}}",
                "{\"metadata\": \"j\"}",
                "{\"metadata\": {\"name\": \"j\", \"labels\": [\"a\"]}}",
                "{\"metadata\": {\"name\": \"j\"}, \"status\": 5}"})
        void aFieldOfTheWrongTypeIsAnErrorRatherThanAJobMisread(String answer) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> JobHeads.read(answer.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                    .isInstanceOf(java.io.IOException.class);
        }

        @Test
        void aHeadKeepsWhatTheWriterRemembersAJobByAndDropsTheRest() throws Exception {
            PyTorchJob job = Seed.job("default", "head-read");
            job.getMetadata().setUid("object-uid");
            job.getMetadata().setResourceVersion("42");
            job.getMetadata().setGeneration(3L);
            job.getMetadata().setLabels(java.util.Map.of(dev.muster.model.job.MemberJobs.FLEET_JOB_UID, "event-uid"));
            job.getMetadata().setAnnotations(java.util.Map.of("muster.dev/submitted-via", "kafka"));
            job.getMetadata().setManagedFields(List.of(new io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder()
                    .withManager("kubectl").withOperation("Update").withNewFieldsV1().addToAdditionalProperties("f:spec", java.util.Map.of()).endFieldsV1().build()));
            job.setStatus(status("Running"));

            PyTorchJob head = JobHeads.read(dev.muster.model.json.MusterJson.toBytes(job));

            assertThat(head.getMetadata().getName()).isEqualTo("head-read");
            assertThat(head.getMetadata().getNamespace()).isEqualTo("default");
            assertThat(head.getMetadata().getUid()).isEqualTo("object-uid");
            assertThat(head.getMetadata().getResourceVersion()).isEqualTo("42");
            assertThat(head.getMetadata().getGeneration()).isEqualTo(3L);
            assertThat(head.getMetadata().getLabels()).isEqualTo(job.getMetadata().getLabels());
            assertThat(head.getMetadata().getAnnotations()).isEqualTo(job.getMetadata().getAnnotations());
            assertThat(head.getMetadata().getManagedFields()).isEmpty();
            assertThat(head.getStatus()).isEqualTo(job.getStatus());
            assertThat(head.getSpec()).isNull();
            assertThat(dev.muster.model.job.FleetJobs.eventUid(head)).isEqualTo(dev.muster.model.job.FleetJobs.eventUid(job));
        }
    }

    @Nested
    class Events {

        private static final Instant FIRST = Instant.parse("2026-12-05T10:00:00.123456789Z");
        private static final String REFUSED = "no member cluster can take the whole gang now: gpu-a: no node has 8 nvidia.com/gpu free";

        private static FleetWrite.RecordEvent refused(JobRef job, String message, Instant time) {
            return new FleetWrite.RecordEvent(job, "event-" + time, "Warning", "PlacementFailed", message, "muster", time);
        }

        private static List<Event> eventsOf(JobRef job) {
            return fleet.v1().events().inNamespace(job.namespace()).list().getItems().stream()
                    .filter(event -> event.getInvolvedObject().getName().equals(job.name())).toList();
        }

        @Test
        void aRepeatIsCountedOnItsSeriesInOneRequestAndAnotherMessageIsAnEventOfItsOwn() {
            FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
            JobRef job = submit("refused-again");
            writer.write(refused(job, REFUSED, FIRST));
            int before = server.requestCount();

            writer.write(refused(job, REFUSED, FIRST.plusSeconds(30)));
            writer.write(refused(job, REFUSED, FIRST.plusSeconds(90)));

            assertThat(server.requestCount() - before).as("requests for two repeats").isEqualTo(2);
            assertThat(eventsOf(job)).singleElement().satisfies(series -> {
                assertThat(series.getCount()).isEqualTo(3);
                assertThat(series.getFirstTimestamp()).isEqualTo(FIRST.toString());
                assertThat(series.getLastTimestamp()).isEqualTo(FIRST.plusSeconds(90).toString());
                assertThat(series.getType()).isEqualTo("Warning");
            });

            writer.write(refused(job, "no member cluster can take the whole gang now: gpu-a: excluded", FIRST.plusSeconds(120)));
            assertThat(eventsOf(job)).hasSize(2);
        }

        /** After a restart the same decisions are read again: none is counted twice, by this writer or a new one. */
        @Test
        void anOccurrenceReadAgainIsNotCountedAgain() {
            FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
            JobRef job = submit("read-again");
            writer.write(refused(job, REFUSED, FIRST));
            writer.write(refused(job, REFUSED, FIRST.plusNanos(1)));

            writer.write(refused(job, REFUSED, FIRST.plusNanos(1)));
            FleetWriter restarted = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
            restarted.write(refused(job, REFUSED, FIRST));
            restarted.write(refused(job, REFUSED, FIRST.plusNanos(1)));

            assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(2);

            restarted.write(refused(job, REFUSED, FIRST.plusSeconds(5)));
            assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(3);
        }

        /** Events expire on a real API server: a series gone is begun again; one changed by another writer is counted over. */
        @Test
        void aSeriesGoneIsBegunAgainAndOneChangedSinceIsCountedOverWhatIsThere() {
            FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
            JobRef job = submit("series-gone");
            writer.write(refused(job, REFUSED, FIRST));

            Event series = eventsOf(job).get(0);
            series.setCount(7);
            fleet.v1().events().inNamespace("default").resource(series).update();
            writer.write(refused(job, REFUSED, FIRST.plusSeconds(10)));
            assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(8);

            fleet.v1().events().inNamespace("default").withName(series.getMetadata().getName()).delete();
            writer.write(refused(job, REFUSED, FIRST.plusSeconds(20)));
            assertThat(eventsOf(job)).singleElement().satisfies(begun -> {
                assertThat(begun.getCount()).isEqualTo(1);
                assertThat(begun.getFirstTimestamp()).isEqualTo(FIRST.plusSeconds(20).toString());
            });
        }
    }
}
