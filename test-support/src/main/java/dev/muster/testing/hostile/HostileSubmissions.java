package dev.muster.testing.hostile;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.testing.seed.Seed;

/**
 * Hostile submissions for the Kafka path: the cases of a corpus ({@code hostile/submissions.yaml}, each with the error
 * it must get) and as many as asked generated from a seed, each the seed's submission of a job of its own with one to
 * three random mutations (a value replaced by something hostile, a field removed or added, the record cut short,
 * garbage bytes, a wrong key). The same seed gives the same cases.
 */
public final class HostileSubmissions {

    private final String namespace;

    /** Submissions into {@code namespace}, where a good job is admitted. */
    public HostileSubmissions(String namespace) {
        this.namespace = namespace;
    }

    /** A good submission of a job of its own: the seed's PyTorchJob, named {@code name}. */
    public JobEvent good(String name) {
        JobRef job = new JobRef(namespace, name, UUID.nameUUIDFromBytes((namespace + "/" + name).getBytes(StandardCharsets.UTF_8)).toString());
        PyTorchJob manifest = Seed.job(namespace, name);
        manifest.getMetadata().setUid(job.uid());
        return JobEvent.create("/hostile", job, Instant.parse("2026-12-02T00:00:00Z"), new JobSubmitted(manifest));
    }

    private ObjectNode goodTree(String name) {
        return (ObjectNode) MusterJson.fromBytes(EventSerde.serialize(good(name)), JsonNode.class);
    }

    /** The corpus's cases, each applied to a good submission of a job of its own. */
    public List<HostileSubmission> corpus() {
        List<HostileSubmission> corpus = new ArrayList<>();
        int number = 0;
        for (JsonNode entry : Mutations.corpus("/hostile/submissions.yaml")) {
            ObjectNode tree = goodTree("corpus-" + number++);
            String key = tree.path("jobuid").asText();
            if (entry.has("key")) {
                key = entry.get("key").isNull() ? null : entry.get("key").asText();
            }
            byte[] value = Mutations.edit(tree, entry);
            boolean accepted = entry.path("accepted").asBoolean(false);
            corpus.add(new HostileSubmission(entry.path("name").asText(), key, value, accepted ? Optional.empty() : Optional.of(entry.path("expect").asText()),
                    accepted));
        }
        return corpus;
    }

    /** {@code count} generated cases from {@code seed}, each made as it is asked for (some are megabytes). */
    public java.util.stream.Stream<HostileSubmission> generated(long seed, int count) {
        Random random = new Random(seed);
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> generate(random, "generated-" + i));
    }

    private HostileSubmission generate(Random random, String name) {
        ObjectNode tree = goodTree(name);
        String[] key = {tree.path("jobuid").asText()};
        // Kafka's own mutation: the record sent under no key, or another than the job's uid.
        Mutations.Mutated mutated = Mutations.mutate(tree, random, (ignored, draw) -> {
            key[0] = draw.nextBoolean() ? null : "not-the-uid-" + draw.nextInt(1000);
            return "key " + key[0];
        });
        return new HostileSubmission(name + ": " + mutated.describe(), key[0], mutated.bytes(), Optional.empty(), false);
    }
}
