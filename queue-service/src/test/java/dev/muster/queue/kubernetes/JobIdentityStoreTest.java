package dev.muster.queue.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

class JobIdentityStoreTest {

    private final JobIdentityStore store = new JobIdentityStore();

    /** The job as the informer reads it: raw. */
    private static GenericKubernetesResource raw(PyTorchJob job) {
        return MusterJson.json().convertValue(job, GenericKubernetesResource.class);
    }

    @Test
    void aDeletionSeenAtAReListStillNamesTheJobAndItsEventUid() {
        PyTorchJob shown = FleetJobs.forKafkaSubmission(Seed.job("team-a", "from-kafka"), "kafka-uid");
        shown.getMetadata().setUid("fleet-object-uid");
        shown.getMetadata().setResourceVersion("42");
        PyTorchJob applied = Seed.job("team-a", "applied");
        applied.getMetadata().setUid("applied-uid");

        store.put(store.getKey(raw(shown)), raw(shown));
        store.put(store.getKey(raw(applied)), raw(applied));
        GenericKubernetesResource kept = store.remove("team-a/from-kafka");

        assertThat(kept.getMetadata().getNamespace()).isEqualTo("team-a");
        assertThat(kept.getMetadata().getName()).isEqualTo("from-kafka");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(FleetJobs.eventUid(kept)).isEqualTo("kafka-uid");
        assertThat(FleetJobs.eventUid(store.get("team-a/applied"))).isEqualTo("applied-uid");
        assertThat(store.keySet()).containsExactly("team-a/applied");
    }

    @Test
    void thePodTemplatesAreNotKept() {
        GenericKubernetesResource job = raw(Seed.job("team-a", "big"));

        store.put(store.getKey(job), job);

        assertThat(store.get("team-a/big").getAdditionalProperties()).doesNotContainKey("spec");
        assertThat(store.values()).extracting(kept -> kept.getMetadata().getName()).containsExactly("big");
        assertThat(store.isFullState()).isFalse();
    }
}
