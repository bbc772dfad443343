package dev.muster.simulator.cluster;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Kubernetes field selector ({@code involvedObject.uid=...,involvedObject.kind=PyTorchJob}), applied to the
 * items of a list: how {@code kubectl describe} finds an object's events. Requirements are {@code =},
 * {@code ==} or {@code !=} on a dotted field path, all of which must hold.
 */
record FieldSelector(List<Requirement> requirements) {

    record Requirement(String field, String value, boolean equal) {

        boolean holds(JsonNode item) {
            JsonNode node = item;
            for (String step : field.split("\\.")) {
                node = node.path(step);
            }
            String actual = node.isMissingNode() || node.isNull() ? "" : node.asText();
            return actual.equals(value) == equal;
        }
    }

    /** The selector in a request's query string, or empty when it has none. */
    static Optional<FieldSelector> inQuery(String query) {
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("fieldSelector=")) {
                return Optional.of(parse(URLDecoder.decode(parameter.substring("fieldSelector=".length()), StandardCharsets.UTF_8)));
            }
        }
        return Optional.empty();
    }

    /** The query string without its field selector. */
    static String withoutSelector(String query) {
        List<String> kept = new ArrayList<>();
        for (String parameter : query.split("&")) {
            if (!parameter.startsWith("fieldSelector=") && !parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        return String.join("&", kept);
    }

    static FieldSelector parse(String text) {
        List<Requirement> requirements = new ArrayList<>();
        for (String term : text.split(",")) {
            if (term.isBlank()) {
                continue;
            }
            int notEqual = term.indexOf("!=");
            if (notEqual >= 0) {
                requirements.add(new Requirement(term.substring(0, notEqual).trim(), term.substring(notEqual + 2).trim(), false));
                continue;
            }
            int equal = term.indexOf('=');
            if (equal < 0) {
                throw new IllegalArgumentException("invalid field selector term \"" + term + "\": expected field=value or field!=value");
            }
            String value = term.substring(equal + 1).startsWith("=") ? term.substring(equal + 2) : term.substring(equal + 1);
            requirements.add(new Requirement(term.substring(0, equal).trim(), value.trim(), true));
        }
        return new FieldSelector(requirements);
    }

    boolean matches(JsonNode item) {
        return requirements.stream().allMatch(requirement -> requirement.holds(item));
    }
}
