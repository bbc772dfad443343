package dev.muster.queue.submitters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.QuotaTreeDeleted;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;

class SubmissionGateTest {

    private static final Instant T0 = Instant.parse("2026-12-02T08:00:00Z");
    private static final SubmissionGate GATE = SubmissionGate.of(Map.of("team-a-ci", Set.of("team-a", "team-a-dev")),
            Clock.fixed(T0, ZoneOffset.UTC));
    private static final String INBOX = Topics.inboxOf("team-a-ci");

    private static Consumed on(String topic, String key, byte[] value) {
        return new Consumed(topic, 0, 7, key, value);
    }

    private static Consumed deletion(String topic, String namespace) {
        JobEvent deleted = JobEvent.create("/ci", new JobRef(namespace, "trainer", "uid-1"), T0, new JobDeleted("ci"));
        return on(topic, deleted.key(), EventSerde.serialize(deleted));
    }

    private static String refusal(List<Produced> produced) throws Exception {
        assertThat(produced).singleElement().extracting(Produced::topic).isEqualTo(Topics.DEAD_LETTER);
        return MusterJson.json().readValue(produced.get(0).value(), DeadLetter.class).reason();
    }

    @Test
    void aJobEventInANamespaceItsSubmitterMayUseIsPassedOnAsItCame() {
        Consumed record = deletion(INBOX, "team-a-dev");

        assertThat(GATE.process(record)).singleElement().satisfies(produced -> {
            assertThat(produced.topic()).isEqualTo(Topics.SUBMISSIONS);
            assertThat(produced.key()).isEqualTo(record.key());
            assertThat(produced.value()).isEqualTo(record.value());
        });
    }

    @Test
    void aBinaryModeCloudEventIsAuthorizedByItsHeadersAndPassedOnStructured() throws Exception {
        JobEvent deleted = JobEvent.create("/ci", new JobRef("team-b", "trainer", "uid-1"), T0, new JobDeleted("ci"));
        com.fasterxml.jackson.databind.JsonNode structured = MusterJson.json().readTree(EventSerde.serialize(deleted));
        io.cloudevents.CloudEvent event = io.cloudevents.core.builder.CloudEventBuilder.v1().withId(structured.path("id").asText())
                .withSource(java.net.URI.create("/ci")).withType("dev.muster.job.deleted").withSubject("team-a-dev/trainer")
                .withTime(java.time.OffsetDateTime.ofInstant(T0, ZoneOffset.UTC)).withExtension("jobuid", "uid-1")
                .withDataContentType("application/json").withData(MusterJson.json().writeValueAsBytes(structured.path("data"))).build();
        var binary = io.cloudevents.kafka.KafkaMessageFactory.createWriter(INBOX, null, null, "uid-1").writeBinary(event);

        assertThat(GATE.process(new Consumed(INBOX, 0, 7, binary.key(), binary.value(), binary.headers()))).singleElement().satisfies(produced -> {
            assertThat(produced.topic()).isEqualTo(Topics.SUBMISSIONS);
            assertThat(((JobEvent) EventSerde.deserialize(produced.value())).job()).isEqualTo(new JobRef("team-a-dev", "trainer", "uid-1"));
        });
        var otherNamespace = io.cloudevents.core.builder.CloudEventBuilder.v1(event).withSubject("team-b/trainer").build();
        var refused = io.cloudevents.kafka.KafkaMessageFactory.createWriter(INBOX, null, null, "uid-1").writeBinary(otherNamespace);
        assertThat(refusal(GATE.process(new Consumed(INBOX, 0, 8, refused.key(), refused.value(), refused.headers()))))
                .endsWith("not namespace team-b (job team-b/trainer)");
    }

    @Test
    void anotherNamespaceIsRefusedNamingWhatTheSubmitterMayUse() throws Exception {
        assertThat(refusal(GATE.process(deletion(INBOX, "team-b"))))
                .isEqualTo("refused: team-a-ci may submit to and delete from team-a, team-a-dev only, not namespace team-b (job team-b/trainer)");
    }

    @Test
    void anInboxOfNoConfiguredSubmitterPassesNothingOn() throws Exception {
        assertThat(refusal(GATE.process(deletion(Topics.inboxOf("mallory"), "team-a"))))
                .startsWith("refused: no submitter \"mallory\" is configured");
    }

    @Test
    void aSubmitterMaySendNoDecisionAndNoConfiguration() throws Exception {
        JobEvent admitted = JobEvent.create("/ci", new JobRef("team-a", "trainer", "uid-1"), T0,
                new JobAdmitted(null, null, "team-a", null));
        ConfigEvent tree = ConfigEvent.create("/ci", T0, new QuotaTreeDeleted("kube-system", "elasticquotatree"));

        assertThat(refusal(GATE.process(on(INBOX, admitted.key(), EventSerde.serialize(admitted)))))
                .isEqualTo("refused: team-a-ci may only submit and delete jobs, not send dev.muster.job.admitted");
        assertThat(refusal(GATE.process(on(INBOX, tree.key(), EventSerde.serialize(tree)))))
                .isEqualTo("refused: team-a-ci may only submit and delete jobs, not send dev.muster.config.quota-tree-deleted");
    }

    @Test
    void aRecordWhoseNamespaceCannotBeReadIsRefusedAndOneWhoseNamespaceCanIsPassedOnForTheQueueToJudge() throws Exception {
        assertThat(refusal(GATE.process(on(INBOX, "k", "\u0000garbage".getBytes(StandardCharsets.UTF_8)))))
                .startsWith("refused: cannot tell which namespace the record is for: not JSON");

        String noData = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"1\",\"source\":\"/ci\","
                + "\"subject\":\"team-a/trainer\",\"jobuid\":\"uid-1\",\"time\":\"2026-12-02T08:00:00Z\"}";
        assertThat(GATE.process(on(INBOX, "uid-1", noData.getBytes(StandardCharsets.UTF_8)))).singleElement()
                .extracting(Produced::topic).isEqualTo(Topics.SUBMISSIONS);
    }

    @Test
    void aSubjectGivenTwiceCannotSmuggleAnotherNamespacePastTheGate() throws Exception {
        String twice = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"/ci\","
                + "\"subject\":\"team-a/trainer\",\"subject\":\"team-b/trainer\",\"jobuid\":\"uid-1\",\"time\":\"2026-12-02T08:00:00Z\"}";

        assertThat(refusal(GATE.process(on(INBOX, "uid-1", twice.getBytes(StandardCharsets.UTF_8)))))
                .contains("cannot tell which namespace").contains("Duplicate field 'subject'");
    }

    @Test
    void aSubmitterWhoseNameCannotBeATopicsOrWhoHasNoNamespaceIsAConfigurationError() {
        assertThatThrownBy(() -> SubmissionGate.of(Map.of("team a", Set.of("team-a"), "ci", Set.of(), "ops", Set.of("Not_A_Label")),
                Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("muster.queue.submitters.\"team a\": a submitter's name makes its inbox muster.job.submissions.team a")
                .hasMessageContaining("muster.queue.submitters.\"ci\".namespaces: name at least one namespace")
                .hasMessageContaining("\"Not_A_Label\" is not a namespace name");
    }
}
