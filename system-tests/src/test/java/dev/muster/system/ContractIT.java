package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.testing.contract.EventSchemas;
import dev.muster.testing.kafka.JobEventClient;

/**
 * Every event Muster's services wrote in the whole end-to-end run (each test class before this one, on the shared stack)
 * validates against its type's schema in {@code docs/asyncapi.yaml}: the contract producers and consumers read is the
 * one the services keep. Events a test itself produced (hostile ones included) are not Muster's and are left out. Run
 * alone it sees only what the stack writes as it starts, and says which event types it missed.
 */
@Order(Integer.MAX_VALUE - 1)
class ContractIT {

    private static final List<String> TOPICS = List.of(Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.ADMISSIONS, Topics.PLACEMENTS,
            Topics.MEMBER_STATUS, Topics.INVENTORY, Topics.PLACEMENT_RESULTS);

    @Test
    void everyEventTheServicesWroteValidatesAgainstTheAsyncApiContract() throws Exception {
        MusterStack stack = SharedStack.get();
        EventSchemas schemas = EventSchemas.read(Path.of("..", "docs", "asyncapi.yaml"));
        Map<String, Integer> validated = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        try (JobEventClient kafka = stack.kafkaAsOperator()) {
            for (String topic : TOPICS) {
                for (byte[] value : kafka.values(topic)) {
                    JsonNode event;
                    try {
                        event = MusterJson.json().readTree(value);
                    } catch (java.io.IOException e) {
                        continue; // not JSON, so not written by Muster: a binary-mode event's data, or a test's garbage
                    }
                    if (event == null || !event.path("source").asText().startsWith("/muster/")) {
                        continue;
                    }
                    String type = event.path("type").asText();
                    if (!schemas.knows(type)) {
                        problems.add(topic + ": " + type + " has no schema");
                        continue;
                    }
                    schemas.problems(event).forEach(problem -> problems.add(topic + ": " + type + ": " + problem.getMessage()));
                    validated.merge(type, 1, Integer::sum);
                }
            }
        }
        System.out.printf("events validated against docs/asyncapi.yaml: %d of %d types, %s%n", validated.size(), schemas.count(), validated);

        assertThat(problems).as("events that break the contract").isEmpty();
        assertThat(validated).as("a run from submission to deletion, with reclaim, writes each of these")
                .containsKeys("dev.muster.job.submitted", "dev.muster.job.deleted", "dev.muster.job.queued", "dev.muster.job.admitted",
                        "dev.muster.job.preempted", "dev.muster.job.placement-attempted", "dev.muster.job.bound", "dev.muster.job.evicted",
                        "dev.muster.job.member-status-changed", "dev.muster.job.member-write-answered",
                        "dev.muster.config.policy-applied", "dev.muster.config.quota-tree-applied", "dev.muster.config.accepted",
                        "dev.muster.member.reported", "dev.muster.member.node-reported", "dev.muster.member.pod-reported");
    }
}
