package dev.muster.model.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import dev.muster.model.json.MusterJson;

/**
 * {@code docs/asyncapi.yaml} is what the code says: regenerated here and compared, so the contract cannot drift
 * ({@code -Dmuster.asyncapi.write=true} writes it again). Events as the services write them validate against it; the
 * system tests validate every event of a whole run.
 */
class AsyncApiContractTest {

    static final Path DOCUMENT = Path.of("..", "docs", "asyncapi.yaml");

    @Test
    void theCheckedInContractIsWhatTheCodeSays() throws IOException {
        String generated = AsyncApiContract.yaml();
        if (Boolean.getBoolean("muster.asyncapi.write")) {
            Files.writeString(DOCUMENT, generated);
        }

        assertThat(Files.readString(DOCUMENT)).as("docs/asyncapi.yaml is out of date: run ./mvnw test -pl shared-model"
                + " -Dtest=AsyncApiContractTest -Dmuster.asyncapi.write=true").isEqualTo(generated);
    }

    @Test
    void everyEventTypeATopicCarriesHasItsMessageOnThatChannel() {
        JsonNode document = MusterJson.json().valueToTree(AsyncApiContract.document());
        for (JsonNode channel : document.path("channels")) {
            String topic = channel.path("address").asText().replace("{principal}", "team-a-ci");
            for (EventType type : TopicContract.typesOf(topic)) {
                assertThat(channel.path("messages").has(type.cloudEventType())).as("%s on %s", type, topic).isTrue();
                assertThat(document.path("components").path("schemas").has(type.cloudEventType())).isTrue();
            }
        }
    }

    @Test
    void eventsAsMusterWritesThemValidateAndBrokenOnesDoNot() throws IOException {
        JobRef job = new JobRef("team-a", "train", "uid-1");
        List<MusterEvent> events = List.of(
                JobEvent.create("/muster/queue-service", job, Instant.now(), new JobQueued("root-team-a", "QuotaExceeded", "root/team-a: full", 2, dev.muster.model.resource.ResourceList.parse(java.util.Map.of("cpu", "1", "nvidia.com/gpu", "8")))),
                JobEvent.create("/muster/fleet-ingress", job, Instant.now(), new JobDeleted("deleted from the fleet API")),
                JobEvent.create("/muster/placement-service", job, Instant.now(), new JobEvicted("gpu-a", "stopped")),
                JobEvent.create("/muster/status-sync-service", job, Instant.now(), new JobFinished("gpu-a", "Succeeded", null)));
        for (MusterEvent event : events) {
            assertThat(problems(MusterJson.json().readTree(EventSerde.serialize(event)))).as(event.describe()).isEmpty();
        }

        JsonNode broken = MusterJson.json().readTree(EventSerde.serialize(events.get(0)));
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken.path("data")).put("position", "second");
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken).remove("jobuid");
        assertThat(problems(broken)).extracting(ValidationMessage::getMessage).anySatisfy(message -> assertThat(message).contains("position"))
                .anySatisfy(message -> assertThat(message).contains("jobuid"));
    }

    /** What is wrong with an event by the schema the document gives its type. */
    static Set<ValidationMessage> problems(JsonNode event) throws IOException {
        JsonNode document = MusterJson.yaml().readTree(Files.readString(DOCUMENT));
        JsonNode schema = document.path("components").path("schemas");
        JsonNode ofType = MusterJson.json().createObjectNode().put("$ref", "#/$defs/" + event.path("type").asText());
        ((com.fasterxml.jackson.databind.node.ObjectNode) ofType).set("$defs", schema);
        String text = MusterJson.json().writeValueAsString(ofType).replace("#/components/schemas/", "#/$defs/");
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(MusterJson.json().readTree(text)).validate(event);
    }
}
