package dev.muster.model.quota;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/** The quota tree: one root node and its descendants. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ElasticQuotaTreeSpec(
        QuotaNode root,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public ElasticQuotaTreeSpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    public ElasticQuotaTreeSpec(QuotaNode root) {
        this(root, Map.of());
    }
}
