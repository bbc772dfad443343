package dev.muster.model.label;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.muster.model.json.MusterJson;
import dev.muster.model.validation.Violation;
import dev.muster.model.validation.Violations;
import io.fabric8.kubernetes.api.model.LabelSelector;

class LabelSelectorsTest {

    private static final Map<String, String> LABELS = Map.of("app", "pytorchjob", "team", "vision");

    private static LabelSelector selector(String yaml) throws Exception {
        return MusterJson.yaml().readValue(yaml, LabelSelector.class);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{}|true",
            "{matchLabels: {app: pytorchjob}}|true",
            "{matchLabels: {app: pytorchjob, team: nlp}}|false",
            "{matchExpressions: [{key: team, operator: In, values: [vision, nlp]}]}|true",
            "{matchExpressions: [{key: team, operator: NotIn, values: [vision]}]}|false",
            "{matchExpressions: [{key: tier, operator: NotIn, values: [gold]}]}|true",
            "{matchExpressions: [{key: app, operator: Exists}]}|true",
            "{matchExpressions: [{key: tier, operator: Exists}]}|false",
            "{matchExpressions: [{key: tier, operator: DoesNotExist}]}|true",
            "{matchLabels: {app: pytorchjob}, matchExpressions: [{key: team, operator: In, values: [nlp]}]}|false",
    })
    void matchesAsKubernetesDoes(String yaml, boolean expected) throws Exception {
        assertThat(LabelSelectors.matches(selector(yaml), LABELS)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{matchExpressions: [{key: a, operator: Like, values: [x]}]}|sel.matchExpressions[0].operator: must be one of In, NotIn, Exists, DoesNotExist, got \"Like\"",
            "{matchExpressions: [{key: a, operator: In}]}|sel.matchExpressions[0].values: must be non-empty for In",
            "{matchExpressions: [{key: a, operator: Exists, values: [x]}]}|sel.matchExpressions[0].values: must be empty for Exists",
            "{matchExpressions: [{operator: Exists}]}|sel.matchExpressions[0].key: is required",
    })
    void rejectsWhatKubernetesRejects(String yaml, String message) throws Exception {
        Violations violations = new Violations();

        LabelSelectors.validate("sel", selector(yaml), violations);

        assertThat(violations.list()).extracting(Violation::toString).isEqualTo(List.of(message));
    }
}
