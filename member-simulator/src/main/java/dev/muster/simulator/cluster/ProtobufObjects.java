package dev.muster.simulator.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads the few objects {@code kubectl} sends as Kubernetes protobuf to the fleet API ({@code kubectl create namespace},
 * {@code create configmap}, {@code create secret}, {@code create priorityclass}): kubectl's typed commands speak protobuf
 * to every server, and a server that answered nothing to them hung kubectl and, after a few, every client of the fleet
 * API. Read here into the JSON the store keeps; another kind sent as protobuf is refused with 415 at once.
 * <p>
 * The encoding: the magic {@code k8s\0}, then a {@code runtime.Unknown} (field 1 its type, field 2 the object's own
 * message); in the object, field 1 is its {@code ObjectMeta}. Field numbers are those of Kubernetes' {@code generated.proto}.
 */
final class ProtobufObjects {

    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ProtobufObjects() {
    }

    /** The object as JSON; empty when it is not one of the kinds read here, or not protobuf. */
    static Optional<ObjectNode> read(byte[] body) {
        if (body.length < MAGIC.length || body[0] != MAGIC[0] || body[1] != MAGIC[1] || body[2] != MAGIC[2] || body[3] != MAGIC[3]) {
            return Optional.empty();
        }
        try {
            Reader unknown = new Reader(body, MAGIC.length, body.length);
            String apiVersion = null;
            String kind = null;
            Reader raw = null;
            while (unknown.more()) {
                int tag = unknown.tag();
                if (tag == field(1, 2)) {
                    Reader type = unknown.message();
                    while (type.more()) {
                        int typeTag = type.tag();
                        if (typeTag == field(1, 2)) {
                            apiVersion = type.string();
                        } else if (typeTag == field(2, 2)) {
                            kind = type.string();
                        } else {
                            type.skip(typeTag);
                        }
                    }
                } else if (tag == field(2, 2)) {
                    raw = unknown.message();
                } else {
                    unknown.skip(tag);
                }
            }
            if (raw == null || kind == null) {
                return Optional.empty();
            }
            ObjectNode object = JSON.objectNode().put("apiVersion", apiVersion).put("kind", kind);
            return switch (apiVersion + "/" + kind) {
                case "v1/Namespace" -> Optional.of(fields(raw, object, new String[] {"metadata"}, new Kind[] {Kind.META}));
                case "v1/ConfigMap" -> Optional.of(fields(raw, object, new String[] {"metadata", "data", "binaryData", "immutable"},
                        new Kind[] {Kind.META, Kind.STRING_MAP, Kind.BYTES_MAP, Kind.BOOL}));
                case "v1/Secret" -> Optional.of(fields(raw, object, new String[] {"metadata", "data", "type", "stringData", "immutable"},
                        new Kind[] {Kind.META, Kind.BYTES_MAP, Kind.STRING, Kind.STRING_MAP, Kind.BOOL}));
                case "scheduling.k8s.io/v1/PriorityClass" -> Optional.of(fields(raw, object,
                        new String[] {"metadata", "value", "globalDefault", "description", "preemptionPolicy"},
                        new Kind[] {Kind.META, Kind.INT, Kind.BOOL, Kind.STRING, Kind.STRING}));
                default -> Optional.empty();
            };
        } catch (IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    private enum Kind { META, STRING, INT, BOOL, STRING_MAP, BYTES_MAP }

    /** Reads an object's fields 1..n by their names and kinds; other fields are left out. */
    private static ObjectNode fields(Reader reader, ObjectNode into, String[] names, Kind[] kinds) {
        while (reader.more()) {
            int tag = reader.tag();
            int number = tag >>> 3;
            if (number < 1 || number > names.length) {
                reader.skip(tag);
                continue;
            }
            String name = names[number - 1];
            switch (kinds[number - 1]) {
                case META -> into.set(name, metadata(reader.message()));
                case STRING -> text(into, name, reader.string());
                case INT -> into.put(name, (int) reader.varint());
                case BOOL -> into.put(name, reader.varint() != 0);
                case STRING_MAP -> entry(into.with(name), reader.message(), false);
                case BYTES_MAP -> entry(into.with(name), reader.message(), true);
            }
        }
        return into;
    }

    private static ObjectNode metadata(Reader reader) {
        ObjectNode metadata = JSON.objectNode();
        while (reader.more()) {
            int tag = reader.tag();
            switch (tag >>> 3) {
                case 1 -> text(metadata, "name", reader.string());
                case 2 -> text(metadata, "generateName", reader.string());
                case 3 -> text(metadata, "namespace", reader.string());
                case 11 -> entry(metadata.with("labels"), reader.message(), false);
                case 12 -> entry(metadata.with("annotations"), reader.message(), false);
                default -> reader.skip(tag);
            }
        }
        return metadata;
    }

    /** Kubernetes' messages send empty strings for fields not set; its JSON leaves them out. */
    private static void text(ObjectNode into, String name, String value) {
        if (!value.isEmpty()) {
            into.put(name, value);
        }
    }

    /** One map entry (field 1 the key, field 2 the value); bytes are base64 in JSON. */
    private static void entry(ObjectNode map, Reader reader, boolean bytes) {
        String key = "";
        String value = "";
        while (reader.more()) {
            int tag = reader.tag();
            if (tag >>> 3 == 1) {
                key = reader.string();
            } else if (tag >>> 3 == 2) {
                value = bytes ? Base64.getEncoder().encodeToString(reader.bytes()) : reader.string();
            } else {
                reader.skip(tag);
            }
        }
        map.put(key, value);
    }

    private static int field(int number, int wireType) {
        return number << 3 | wireType;
    }

    /** Protobuf's wire format over a slice of bytes. */
    private static final class Reader {

        private final byte[] bytes;
        private int at;
        private final int end;

        Reader(byte[] bytes, int from, int end) {
            this.bytes = bytes;
            this.at = from;
            this.end = end;
        }

        boolean more() {
            return at < end;
        }

        int tag() {
            return (int) varint();
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte next = bytes[checked(at++)];
                value |= (long) (next & 0x7f) << shift;
                if ((next & 0x80) == 0) {
                    return value;
                }
            }
            throw new IndexOutOfBoundsException("a varint longer than 10 bytes");
        }

        byte[] bytes() {
            int length = (int) varint();
            checked(at + length - 1);
            byte[] read = java.util.Arrays.copyOfRange(bytes, at, at + length);
            at += length;
            return read;
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        Reader message() {
            int length = (int) varint();
            Reader message = new Reader(bytes, at, checked(at + length - 1) + 1);
            at += length;
            return message;
        }

        void skip(int tag) {
            switch (tag & 7) {
                case 0 -> varint();
                case 1 -> at += 8;
                case 2 -> {
                    // Read first: at += varint() would add to the position before the length was read.
                    int length = (int) varint();
                    at += length;
                }
                case 5 -> at += 4;
                default -> throw new IndexOutOfBoundsException("wire type " + (tag & 7) + " is not read here");
            }
        }

        private int checked(int index) {
            if (index < 0 || index >= end) {
                throw new IndexOutOfBoundsException("past the end of the message");
            }
            return index;
        }
    }
}
