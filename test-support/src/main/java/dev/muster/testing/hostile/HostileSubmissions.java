package dev.muster.testing.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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
        JsonNode cases;
        try (InputStream in = HostileSubmissions.class.getResourceAsStream("/hostile/submissions.yaml")) {
            cases = MusterJson.yaml().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<HostileSubmission> corpus = new ArrayList<>();
        int number = 0;
        for (JsonNode entry : cases) {
            String name = entry.path("name").asText();
            ObjectNode tree = goodTree("corpus-" + number++);
            String key = tree.path("jobuid").asText();
            if (entry.has("remove")) {
                remove(tree, JsonPointer.compile(entry.get("remove").asText()));
            }
            if (entry.has("set")) {
                JsonNode value = entry.has("nest") ? nested(entry.get("to"), entry.get("nest").asInt()) : entry.get("to");
                set(tree, JsonPointer.compile(entry.get("set").asText()), value);
            }
            if (entry.has("sets")) {
                entry.get("sets").fields().forEachRemaining(field -> set(tree, JsonPointer.compile(field.getKey()), field.getValue()));
            }
            if (entry.has("key")) {
                key = entry.get("key").isNull() ? null : entry.get("key").asText();
            }
            byte[] value = entry.has("raw") ? entry.get("raw").asText().getBytes(StandardCharsets.UTF_8) : MusterJson.toBytes(tree);
            if (entry.has("repeat")) {
                value = repeated(value, entry.get("repeat"));
            }
            boolean accepted = entry.path("accepted").asBoolean(false);
            corpus.add(new HostileSubmission(name, key, value, accepted ? Optional.empty() : Optional.of(entry.path("expect").asText()), accepted));
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
        String key = tree.path("jobuid").asText();
        List<String> applied = new ArrayList<>();
        byte[] raw = null;
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            int kind = random.nextInt(100);
            if (kind < 45) {
                JsonPointer at = pick(tree, random);
                JsonNode value = hostileValue(random);
                set(tree, at, value);
                applied.add("set " + at + " to " + describe(value));
            } else if (kind < 65) {
                JsonPointer at = pick(tree, random);
                remove(tree, at);
                applied.add("remove " + at);
            } else if (kind < 75) {
                JsonPointer at = pickObject(tree, random);
                ((ObjectNode) tree.at(at)).set("unexpected-" + random.nextInt(1000), hostileValue(random));
                applied.add("add an unknown field under " + at);
            } else if (kind < 80) {
                key = random.nextBoolean() ? null : "not-the-uid-" + random.nextInt(1000);
                applied.add("key " + key);
            } else if (kind < 90) {
                byte[] text = MusterJson.toBytes(tree);
                int cut = random.nextInt(text.length);
                raw = java.util.Arrays.copyOf(text, cut);
                applied.add("cut after " + cut + " bytes");
                break;
            } else {
                raw = new byte[random.nextInt(300)];
                random.nextBytes(raw);
                applied.add(raw.length + " random bytes");
                break;
            }
        }
        return new HostileSubmission(name + ": " + String.join(", ", applied), key, raw != null ? raw : MusterJson.toBytes(tree), Optional.empty(),
                false);
    }

    /** A value a careless or hostile producer might put anywhere. */
    private static JsonNode hostileValue(Random random) {
        return switch (random.nextInt(16)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.textNode("");
            case 2 -> NODES.numberNode(-1);
            case 3 -> NODES.numberNode(2147483648L);
            case 4 -> NODES.numberNode(new java.math.BigDecimal("1e400"));
            case 5 -> NODES.textNode("1e100000000");
            case 6 -> NODES.booleanNode(random.nextBoolean());
            case 7 -> NODES.arrayNode();
            case 8 -> NODES.objectNode();
            case 9 -> NODES.textNode("名前-\u0000-\uD83D\uDE00-" + "é".repeat(random.nextInt(80)));
            case 10 -> NODES.textNode("x".repeat(64 + random.nextInt(300)));
            case 11 -> nested(NODES.numberNode(1), random.nextBoolean() ? 50 : 150);
            case 12 -> NODES.textNode("-3Gi");
            case 13 -> NODES.numberNode(0.5);
            case 14 -> NODES.textNode("x".repeat(2 * 1024 * 1024));
            default -> NODES.textNode("dev.muster.job.admitted");
        };
    }

    private static JsonNode nested(JsonNode value, int depth) {
        JsonNode node = value;
        for (int i = 0; i < depth; i++) {
            ArrayNode array = NODES.arrayNode();
            array.add(node);
            node = array;
        }
        return node;
    }

    private static String describe(JsonNode value) {
        String text = value.toString();
        return text.length() > 40 ? text.substring(0, 40) + "... (" + text.length() + " characters)" : text;
    }

    /** A random place in the tree, the root's children included, the root itself not. */
    private static JsonPointer pick(JsonNode tree, Random random) {
        List<JsonPointer> places = new ArrayList<>();
        collect(tree, JsonPointer.empty(), places, false);
        return places.get(random.nextInt(places.size()));
    }

    private static JsonPointer pickObject(JsonNode tree, Random random) {
        List<JsonPointer> objects = new ArrayList<>();
        objects.add(JsonPointer.empty());
        collect(tree, JsonPointer.empty(), objects, true);
        return objects.get(random.nextInt(objects.size()));
    }

    private static void collect(JsonNode node, JsonPointer at, List<JsonPointer> into, boolean objectsOnly) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonPointer child = at.appendProperty(field.getKey());
                if (!objectsOnly || field.getValue().isObject()) {
                    into.add(child);
                }
                collect(field.getValue(), child, into, objectsOnly);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonPointer child = at.appendIndex(i);
                if (!objectsOnly || node.get(i).isObject()) {
                    into.add(child);
                }
                collect(node.get(i), child, into, objectsOnly);
            }
        }
    }

    private static void set(ObjectNode tree, JsonPointer at, JsonNode value) {
        JsonNode parent = tree.at(at.head());
        String last = at.last().getMatchingProperty();
        if (parent instanceof ObjectNode object) {
            object.set(last, value);
        } else if (parent instanceof ArrayNode array && at.last().mayMatchElement()) {
            int index = at.last().getMatchingIndex();
            if (index < array.size()) {
                array.set(index, value);
            } else {
                array.add(value);
            }
        }
    }

    private static void remove(ObjectNode tree, JsonPointer at) {
        JsonNode parent = tree.at(at.head());
        if (parent instanceof ObjectNode object) {
            object.remove(at.last().getMatchingProperty());
        } else if (parent instanceof ArrayNode array && at.last().mayMatchElement() && at.last().getMatchingIndex() < array.size()) {
            array.remove(at.last().getMatchingIndex());
        }
    }

    /** The record's bytes padded to a size: {@code repeat: {field: /pointer, bytes: N}} fills that string field. */
    private static byte[] repeated(byte[] value, JsonNode repeat) {
        ObjectNode tree = (ObjectNode) MusterJson.fromBytes(value, JsonNode.class);
        set(tree, JsonPointer.compile(repeat.get("field").asText()), NODES.textNode("x".repeat(repeat.get("bytes").asInt())));
        return MusterJson.toBytes(tree);
    }
}
