package dev.muster.testing.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.json.MusterJson;

/**
 * What the hostile generators and corpora do to a good JSON document, whichever front door it is sent to: one to three
 * random mutations (a value replaced by something hostile, a field removed or added, the text cut short, garbage
 * bytes, or one of the door's own), and a corpus case's edits ({@code set}, {@code sets}, {@code remove}, {@code nest},
 * {@code repeat}, {@code raw}).
 */
final class Mutations {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A mutation only one front door has (another record key on Kafka); returns what it did. */
    interface DoorMutation {
        String apply(ObjectNode tree, Random random);
    }

    /** What was sent and why: the bytes (the tree's, unless a mutation left it unreadable) and the mutations applied. */
    record Mutated(byte[] bytes, List<String> applied) {

        String describe() {
            return String.join(", ", applied);
        }
    }

    private Mutations() {
    }

    /** The corpus file's cases, in order. */
    static JsonNode corpus(String resource) {
        try (InputStream in = Mutations.class.getResourceAsStream(resource)) {
            return MusterJson.yaml().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A corpus case's edits applied to the tree; its bytes (its {@code raw} text, if it has one). */
    static byte[] edit(ObjectNode tree, JsonNode entry) {
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
        if (entry.has("repeat")) {
            JsonNode repeat = entry.get("repeat");
            set(tree, JsonPointer.compile(repeat.get("field").asText()), NODES.textNode("x".repeat(repeat.get("bytes").asInt())));
        }
        return entry.has("raw") ? entry.get("raw").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8) : MusterJson.toBytes(tree);
    }

    /** One to three random mutations of the tree, a door's own among them one time in twenty. */
    static Mutated mutate(ObjectNode tree, Random random, DoorMutation doorMutation) {
        List<String> applied = new ArrayList<>();
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
                applied.add(doorMutation.apply(tree, random));
            } else if (kind < 90) {
                byte[] text = MusterJson.toBytes(tree);
                int cut = random.nextInt(text.length);
                applied.add("cut after " + cut + " bytes");
                return new Mutated(java.util.Arrays.copyOf(text, cut), applied);
            } else {
                byte[] garbage = new byte[random.nextInt(300)];
                random.nextBytes(garbage);
                applied.add(garbage.length + " random bytes");
                return new Mutated(garbage, applied);
            }
        }
        return new Mutated(MusterJson.toBytes(tree), applied);
    }

    /** A value a careless or hostile sender might put anywhere. */
    static JsonNode hostileValue(Random random) {
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

    static void set(ObjectNode tree, JsonPointer at, JsonNode value) {
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
}
