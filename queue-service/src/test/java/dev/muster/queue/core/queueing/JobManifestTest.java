package dev.muster.queue.core.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.JobManifest;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.testing.seed.Seed;

class JobManifestTest {

    private final PyTorchJob job = Seed.job("team-a", "waits-long");

    @Test
    void theJobComesBackAsItWasEachTimeInACopyOfItsOwn() {
        JobManifest manifest = JobManifest.of(job);

        assertThat(manifest.job()).isEqualTo(job).isNotSameAs(job);
        assertThat(manifest.job()).isNotSameAs(manifest.job());
    }

    @Test
    void inTheStateTopicTheJobIsTheJsonObjectItWasBeforeSoRecordsWrittenEitherWayRead() throws Exception {
        TrackedJob tracked = new TrackedJob(new JobRef("team-a", "waits-long", "uid-1"), JobManifest.of(job), null,
                JobDemand.of(job).total(), null, 0);

        byte[] record = QueueState.encode(tracked);

        JsonNode written = MusterJson.json().readTree(record).get("job");
        assertThat(written.isObject()).isTrue();
        assertThat(MusterJson.json().treeToValue(written, PyTorchJob.class)).isEqualTo(job);
        assertThat(QueueState.JOBS.read(record).job().job()).isEqualTo(job);
    }
}
