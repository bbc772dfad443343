package dev.muster.testing.hostile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.json.MusterJson;
import dev.muster.testing.seed.Seed;

/**
 * Hostile PyTorchJobs for the fleet API: the cases of a corpus ({@code hostile/manifests.yaml}, each with the refusal it
 * must get) and as many as asked generated from a seed, each the seed's job under a name of its own with one to three
 * random mutations (a value replaced by something hostile, a field removed or added, the body cut short, garbage
 * bytes, another namespace in the object than the request's), the same mutations as {@link HostileSubmissions} makes
 * on the Kafka path. The same seed gives the same cases.
 */
public final class HostileManifests {

    private final String namespace;

    /** Jobs created in {@code namespace}, where a good one is created. */
    public HostileManifests(String namespace) {
        this.namespace = namespace;
    }

    /** A good job of its own: the seed's PyTorchJob, named {@code name}, as kubectl sends it. */
    public HostileManifest good(String name) {
        return new HostileManifest("good " + name, namespace, MusterJson.toBytes(goodTree(name)), Optional.empty(), true);
    }

    private ObjectNode goodTree(String name) {
        return MusterJson.json().valueToTree(Seed.job(namespace, name));
    }

    /** The corpus's cases, each applied to a good job of its own unless it names the job itself. */
    public List<HostileManifest> corpus() {
        List<HostileManifest> corpus = new ArrayList<>();
        int number = 0;
        for (JsonNode entry : Mutations.corpus("/hostile/manifests.yaml")) {
            ObjectNode tree = goodTree("corpus-" + number++);
            byte[] body = Mutations.edit(tree, entry);
            boolean accepted = entry.path("accepted").asBoolean(false);
            corpus.add(new HostileManifest(entry.path("name").asText(), entry.path("namespace").asText(namespace), body,
                    accepted ? Optional.empty() : Optional.of(entry.path("expect").asText()), accepted));
        }
        return corpus;
    }

    /** {@code count} generated cases from {@code seed}, each made as it is asked for (some are megabytes). */
    public java.util.stream.Stream<HostileManifest> generated(long seed, int count) {
        Random random = new Random(seed);
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> generate(random, "generated-" + i));
    }

    private HostileManifest generate(Random random, String name) {
        // The fleet API's own mutation: the object says another namespace than the request it is sent in.
        Mutations.Mutated mutated = Mutations.mutate(goodTree(name), random, (tree, draw) -> {
            JsonNode other = draw.nextBoolean() ? MusterJson.json().getNodeFactory().textNode("kube-public") : Mutations.hostileValue(draw);
            Mutations.set(tree, com.fasterxml.jackson.core.JsonPointer.compile("/metadata/namespace"), other);
            return "the object's namespace " + (other.isTextual() && other.asText().length() < 40 ? other : other.getNodeType());
        });
        return new HostileManifest(name + ": " + mutated.describe(), namespace, mutated.bytes(), Optional.empty(), false);
    }
}
