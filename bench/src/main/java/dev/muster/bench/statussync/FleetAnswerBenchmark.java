package dev.muster.bench.statussync;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.statussync.kubernetes.JobHeads;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Reading the API server's answer to one of status sync's fleet job writes (a status patch, a creation): the seed's
 * PyTorchJob with its status, and the managed fields a real API server keeps for kubectl and status sync. As fabric8's
 * operations read it, into the job's whole model, and as status sync now reads it ({@link JobHeads}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class FleetAnswerBenchmark {

    private final KubernetesSerialization fabric8 = new KubernetesSerialization();
    private byte[] answer;

    @Setup(Level.Trial)
    public void answer() throws IOException {
        PyTorchJob job = Manifests.read(Files.readString(Path.of("examples/pytorch-job.yaml")), PyTorchJob.class);
        job.getMetadata().setUid("9a1c7f3e-52b4-4d8e-9f6b-0c2d1e3f4a5b");
        job.getMetadata().setResourceVersion("184467");
        job.getMetadata().setGeneration(1L);
        job.getMetadata().setCreationTimestamp("2026-12-05T10:00:00Z");
        job.getMetadata().setLabels(Map.of("muster.dev/fleet-job-uid", "2f0e4c1a-7d3b-4e59-8a6c-5b1d2e3f4a6c"));
        job.getMetadata().setAnnotations(Map.of(FleetJobs.SUBMITTED_VIA, FleetJobs.KAFKA));
        job.getMetadata().setManagedFields(List.of(
                managed("muster-status-sync-service", "Update", null, Map.of("f:metadata", Map.of("f:labels", Map.of()), "f:spec", Map.of(
                        "f:pytorchReplicaSpecs", Map.of("f:Master", Map.of(), "f:Worker", Map.of()), "f:runPolicy", Map.of()))),
                managed("muster-status-sync-service", "Update", "status", Map.of("f:status", Map.of("f:conditions", Map.of(),
                        "f:replicaStatuses", Map.of(), "f:startTime", Map.of())))));
        String now = Instant.parse("2026-12-05T10:00:05Z").toString();
        job.setStatus(new PyTorchJobStatus(List.of(
                new JobCondition("Created", "True", "PyTorchJobCreated", "PyTorchJob default/pytorch-test is created on gpu-a", now, now),
                new JobCondition("Running", "True", "PyTorchJobRunning", "PyTorchJob default/pytorch-test is running on gpu-a", now, now)),
                null, null, null, now, null));
        answer = MusterJson.toBytes(job);
        System.out.printf("%nanswer: %d bytes%n", answer.length);
    }

    private static io.fabric8.kubernetes.api.model.ManagedFieldsEntry managed(String manager, String operation, String subresource,
                                                                            Map<String, Object> fields) {
        return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation).withSubresource(subresource)
                .withApiVersion(PyTorchJob.API_VERSION).withFieldsType("FieldsV1").withTime("2026-12-05T10:00:05Z")
                .withNewFieldsV1().addToAdditionalProperties(fields).endFieldsV1().build();
    }

    /** As fabric8's operations read an answer: the whole job, bound into its model. */
    @Benchmark
    public PyTorchJob wholeJob() {
        return fabric8.unmarshal(new ByteArrayInputStream(answer), PyTorchJob.class);
    }

    /** As status sync reads it now: metadata and status bound, the rest skipped. */
    @Benchmark
    public PyTorchJob head() throws IOException {
        return JobHeads.read(answer);
    }
}
