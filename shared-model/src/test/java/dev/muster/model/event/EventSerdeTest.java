package dev.muster.model.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.job.ReplicaType;
import dev.muster.model.json.Manifests;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;

class EventSerdeTest {

    private static final JobRef JOB = new JobRef("default", "pytorch-test", "5f0c7e2a-0b7d-4e55-9d35-2c1f0a9e6d11");
    private static final Instant TIME = Instant.parse("2026-11-29T17:00:00Z");

    private static List<JobEventData> oneOfEachType() {
        PyTorchJob job = Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), PyTorchJob.class);
        PropagationPolicy policy = Manifests.read(SeedManifests.text(SeedManifests.POLICY_GANG_QUEUE), PropagationPolicy.class);
        ResourceList demand = ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi"));
        return List.of(
                new JobSubmitted(job),
                new JobDeleted("deleted through the fleet API"),
                new JobRejected(List.of("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1")),
                new JobQueued("root-child-2-v5zxz", "QuotaExceeded", "root/child-2: kube-queue/max-jobs 1/1 in use", 2, demand, 1000, "high"),
                new JobAdmitted(job, policy, "child-2", demand, 1000),
                new PlacementAttempted("cluster-a", "pytorch-test-cluster-a"),
                new PlacementFailed(Map.of("cluster-b", "no node has 8 nvidia.com/gpu free (largest free: 4 on node b-7)"), "fits nowhere"),
                JobBound.of("cluster-a", null, Map.of(ReplicaType.WORKER, 2, ReplicaType.MASTER, 1)),
                new MemberStatusChanged("cluster-a", "Running", "JobRunning", "all pods running",
                        new PyTorchJobStatus(List.of(new JobCondition("Running", "True", "JobRunning", "", null, null)), null, null, null, null, null)),
                new FailoverTriggered("cluster-a", "MemberUnreachable", "member cluster-a is unreachable for 31s (toleration 30s)", "Immediately"),
                new JobFinished("cluster-a", "Succeeded", "job completed"),
                new JobPreempted("b/guaranteed", "b-guaranteed-uid", "preempted to return borrowed capacity"),
                new JobWithdrawn("deleted from the fleet API"),
                new JobEvicted("cluster-a", "stopped on member cluster cluster-a for b/guaranteed"),
                new JobGivenBack("fits on no member cluster for 10m"),
                new JobShown("5f1c3a52-0d7e-4b8e-9a61-2f0c1d7b9e44"),
                new MemberWriteAnswered("cluster-a", MemberWriteAnswered.Outcome.FAILED, "reserve", "member refused: quota exceeded"));
    }

    private static List<ConfigEventData> oneOfEachConfigType() {
        PropagationPolicy policy = Manifests.read(SeedManifests.text(SeedManifests.POLICY_GANG_QUEUE), PropagationPolicy.class);
        ElasticQuotaTree tree = Manifests.read(SeedManifests.text(SeedManifests.ELASTIC_QUOTA_TREE), ElasticQuotaTree.class);
        return List.of(new PolicyApplied(policy), new PolicyDeleted("default", "example-policy"), new QuotaTreeApplied(tree),
                new QuotaTreeDeleted("kube-system", "elasticquotatree"), new PriorityClassApplied("research-high", 5000, false),
                new PriorityClassDeleted("research-high"), new QueueTick(), new PlacementTick(),
                new ConfigAccepted(new ConfigRef(ElasticQuotaTree.KIND, "kube-system", "elasticquotatree"), false, Map.of("root", "root-xzz6z")),
                new ConfigRejected(new ConfigRef(PropagationPolicy.KIND, "default", "example-policy"),
                        List.of("spec.failover.application.decisionConditions.tolerationSeconds: expected an integer, got \"soon\""), "nothing"));
    }

    static List<MemberEventData> oneOfEachMemberType() {
        NodeSnapshot node = new NodeSnapshot("gpu-a-0", Map.of("zone", "a"),
                List.of(new TaintBuilder().withKey("dedicated").withValue("training").withEffect("NoSchedule").build()),
                ResourceList.parse(Map.of("cpu", "96", "memory", "768Gi", "nvidia.com/gpu", "8", "pods", "110")), true, false);
        return List.of(
                new MemberEventData.MemberReported(new MemberSnapshot("gpu-a", false, true, Map.of("region", "cn-hangzhou"), TIME)),
                new MemberEventData.MemberRemoved("gpu-a"),
                new MemberEventData.NodeReported("gpu-a", node),
                new MemberEventData.NodeRemoved("gpu-a", "gpu-a-1"),
                new MemberEventData.PodReported("gpu-a", new PodSnapshot("default", "j-worker-0", "gpu-a-0",
                        ResourceList.parse(Map.of("cpu", "4010m", "nvidia.com/gpu", "8", "pods", "1")), false)),
                new MemberEventData.PodRemoved("gpu-a", "default", "j-worker-0"),
                new MemberEventData.ReservationReported("gpu-a", new ReservationSnapshot("j-worker-0", "Available", "gpu-a-0",
                        ResourceList.parse(Map.of("nvidia.com/gpu", "8", "pods", "1")), List.of("default/j-worker-0"))),
                new MemberEventData.ReservationRemoved("gpu-a", "j-worker-0"));
    }

    @Test
    void everyMemberEventTypeRoundTripsKeyedByCluster() throws Exception {
        for (MemberEventData data : oneOfEachMemberType()) {
            MemberEvent event = MemberEvent.create("/muster/status-sync-service", TIME, data);

            MusterEvent read = EventSerde.deserialize(EventSerde.serialize(event));

            assertThat(read).isInstanceOf(MemberEvent.class);
            assertThat(read.key()).isEqualTo("gpu-a");
            assertThat(read.subject()).startsWith("gpu-a");
            assertThat(((MemberEvent) read).data()).isEqualTo(data);
        }
    }

    @Test
    void everyEventTypeIsCoveredHere() {
        Set<EventType> covered = oneOfEachType().stream().map(EventType::of).collect(Collectors.toSet());
        oneOfEachConfigType().forEach(data -> covered.add(EventType.of(data)));
        oneOfEachMemberType().forEach(data -> covered.add(EventType.of(data)));

        assertThat(covered).isEqualTo(EnumSet.allOf(EventType.class));
    }

    @Test
    void everyConfigEventTypeRoundTripsKeyedByKindNamespaceAndNameOrKindAndNameWhenClusterScoped() throws Exception {
        for (ConfigEventData data : oneOfEachConfigType()) {
            ConfigEvent event = ConfigEvent.create("/muster/fleet-ingress", TIME, data);

            MusterEvent read = EventSerde.deserialize(EventSerde.serialize(event));

            assertThat(read).isInstanceOf(ConfigEvent.class);
            assertThat(read.key()).isEqualTo(data.key()).matches("(PropagationPolicy|ElasticQuotaTree|QueueTick|PlacementTick)/[a-z-]+/[a-z-]+|PriorityClass/[a-z-]+");
            assertThat(MusterJson.json().valueToTree(((ConfigEvent) read).data()).toString())
                    .isEqualTo(MusterJson.json().valueToTree(data).toString());
        }
        JsonNode wire = MusterJson.json().readTree(EventSerde.serialize(ConfigEvent.create("/x", TIME, new PolicyDeleted("default", "p"))));
        assertThat(wire.has("jobuid")).isFalse();
        assertThat(wire.get("subject").asText()).isEqualTo("default/p");
    }

    @Test
    void aConfigEventWithoutItsObjectIsRefused() {
        String payload = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.config.policy-applied\",\"id\":\"1\",\"source\":\"s\","
                + "\"subject\":\"a/b\",\"time\":\"2026-11-29T17:00:00Z\",\"data\":{}}";

        assertThatThrownBy(() -> EventSerde.deserialize(payload.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining("policy with metadata.name and metadata.namespace is required");
    }

    @Test
    void everyEventTypeRoundTrips() throws Exception {
        for (JobEventData data : oneOfEachType()) {
            JobEvent event = JobEvent.create("/muster/test", JOB, TIME, data);

            JobEvent read = (JobEvent) EventSerde.deserialize(EventSerde.serialize(event));

            assertThat(read.id()).isEqualTo(event.id());
            assertThat(read.type()).isEqualTo(event.type());
            assertThat(read.job()).isEqualTo(JOB);
            assertThat(read.time()).isEqualTo(TIME);
            // API objects are compared by their JSON; records of plain values by equality.
            assertThat(MusterJson.json().valueToTree(read.data()).toString())
                    .isEqualTo(MusterJson.json().valueToTree(data).toString());
        }
    }

    @Test
    void theWireFormatIsACloudEventWithTheJobAsSubjectAndKey() throws Exception {
        JobEvent event = JobEvent.create("/muster/queue-service", JOB, TIME,
                new JobQueued(null, "NoQuotaForNamespace", "namespace \"default\" is bound to no quota leaf", null,
                        ResourceList.parse(Map.of("cpu", "4010m"))));

        JsonNode wire = MusterJson.json().readTree(EventSerde.serialize(event));

        assertThat(wire.get("specversion").asText()).isEqualTo("1.0");
        assertThat(wire.get("type").asText()).isEqualTo("dev.muster.job.queued");
        assertThat(wire.get("source").asText()).isEqualTo("/muster/queue-service");
        assertThat(wire.get("subject").asText()).isEqualTo("default/pytorch-test");
        assertThat(wire.get("time").asText()).isEqualTo("2026-11-29T17:00:00Z");
        assertThat(wire.get("datacontenttype").asText()).isEqualTo("application/json");
        assertThat(wire.get("schemaversion").asInt()).isEqualTo(1);
        assertThat(wire.get("jobuid").asText()).isEqualTo(JOB.uid()).isEqualTo(event.key());
        assertThat(wire.at("/data/demand/cpu").asText()).isEqualTo("4010m");
        assertThat(wire.get("data").has("queue")).as("null fields are left out").isFalse();
    }

    @Test
    void theBindingMessageHasTheVendorsExactShape() {
        JobBound bound = JobBound.of("cfxxxxxx", null, Map.of(ReplicaType.WORKER, 2, ReplicaType.MASTER, 1));

        assertThat(bound.message()).isEqualTo("Binding has been scheduled successfully. Result: {cfxxxxxx:0,[{master 1} {worker 2}]}");
    }

    @Test
    void aFollowUpHasAnIdDerivedFromItsCause() {
        JobEvent submitted = JobEvent.create("/client", JOB, TIME, new JobDeleted("x"));
        JobQueued queued = new JobQueued(null, "NoQuotaForNamespace", "m", null, ResourceList.empty());

        JobEvent first = submitted.followUp("/muster/queue-service", JOB, TIME, queued);
        JobEvent again = submitted.followUp("/muster/queue-service", JOB, TIME.plusSeconds(5), queued);
        JobEvent rejected = submitted.followUp("/muster/queue-service", JOB, TIME, new JobRejected(List.of("r")));

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(rejected.id()).isNotEqualTo(first.id());
        assertThat(first.id()).isNotEqualTo(submitted.id());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "not json at all| not JSON: ",
            "[1,2]| a CloudEvent must be a JSON object",
            "{\"specversion\":\"0.3\"}| unsupported CloudEvents specversion \"0.3\", expected \"1.0\"",
            "{\"specversion\":\"1.0\",\"type\":\"com.example.other\"}| unknown event type \"com.example.other\"",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"s\",\"subject\":\"a/b\",\"jobuid\":\"u\",\"schemaversion\":2}| unsupported schemaversion 2 of dev.muster.job.deleted; this build reads 1 to 1",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\"}| missing CloudEvents attribute \"id\"",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"s\",\"subject\":\"pytorch-test\",\"jobuid\":\"u\",\"time\":\"2026-11-29T17:00:00Z\",\"data\":{}}| subject must be namespace/name, got \"pytorch-test\"",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"s\",\"subject\":\"a/b\",\"jobuid\":\"u\",\"time\":\"yesterday\",\"data\":{}}| time must be RFC 3339, got \"yesterday\"",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"s\",\"subject\":\"a/b\",\"jobuid\":\"u\",\"time\":\"2026-11-29T17:00:00Z\"}| missing data object of dev.muster.job.deleted",
            "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.queued\",\"id\":\"1\",\"source\":\"s\",\"subject\":\"a/b\",\"jobuid\":\"u\",\"time\":\"2026-11-29T17:00:00Z\",\"data\":{\"demand\":{\"cpu\":\"two\"}}}| data of dev.muster.job.queued does not match its schema: ",
    })
    void aMalformedRecordIsRefusedWithTheReason(String payload, String reason) {
        assertThatThrownBy(() -> EventSerde.deserialize(payload.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageStartingWith(reason.strip());
    }

    @Test
    void timeAndSubjectAreOptionalAsInCloudEventsASubmissionIsNamedByItsManifestAndTakesItsRecordsTime() throws Exception {
        String withoutEither = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"1\",\"source\":\"/producer\","
                + "\"jobuid\":\"u-1\",\"data\":{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\","
                + "\"metadata\":{\"name\":\"train\",\"namespace\":\"team-a\"},\"spec\":{\"pytorchReplicaSpecs\":{\"Worker\":{\"replicas\":2}}}}}";

        JobEvent read = (JobEvent) EventSerde.deserialize(withoutEither.getBytes(StandardCharsets.UTF_8), TIME);

        assertThat(read.job()).isEqualTo(new JobRef("team-a", "train", "u-1"));
        assertThat(read.time()).isEqualTo(TIME);
        assertThatThrownBy(() -> EventSerde.deserialize(withoutEither.getBytes(StandardCharsets.UTF_8)))
                .as("where no record time is at hand, time is required").hasMessage("missing CloudEvents attribute \"time\"");
    }

    @Test
    void anEventNamedByNothingButItsSubjectMustSayIt() {
        String deletion = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.deleted\",\"id\":\"1\",\"source\":\"/producer\","
                + "\"jobuid\":\"u-1\",\"data\":{\"reason\":\"done\"}}";
        String unnamedSubmission = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"1\",\"source\":\"/producer\","
                + "\"jobuid\":\"u-1\",\"data\":{\"kind\":\"PyTorchJob\",\"metadata\":{\"name\":\"train\"}}}";

        assertThatThrownBy(() -> EventSerde.deserialize(deletion.getBytes(StandardCharsets.UTF_8), TIME))
                .hasMessage("missing CloudEvents attribute \"subject\"");
        assertThatThrownBy(() -> EventSerde.deserialize(unnamedSubmission.getBytes(StandardCharsets.UTF_8), TIME))
                .hasMessageStartingWith("missing CloudEvents attribute \"subject\" (namespace/name), and the submitted manifest does not name");
    }

    private static String submission(String data) {
        return "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"1\",\"source\":\"/producer\","
                + "\"subject\":\"team-a/train\",\"jobuid\":\"u-1\",\"time\":\"2026-11-29T17:00:00Z\",\"data\":" + data + "}";
    }

    private static final String MANIFEST = "{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\",\"metadata\":{\"name\":\"train\"},"
            + "\"spec\":{\"pytorchReplicaSpecs\":{\"Worker\":{\"replicas\":2}}}}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "the manifest itself|" + "MANIFEST",
            "wrapped as job|WRAPPED",
            "YAML text|YAML",
    })
    void aSubmissionCarriesItsManifestAsAnObjectOrAsText(String form, String which) throws Exception {
        String data = switch (which) {
            case "MANIFEST" -> MANIFEST;
            case "WRAPPED" -> "{\"job\":" + MANIFEST + "}";
            default -> MusterJson.json().writeValueAsString("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: train}\n"
                    + "spec:\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2}\n");
        };

        JobEvent event = (JobEvent) EventSerde.deserialize(submission(data).getBytes(StandardCharsets.UTF_8));

        PyTorchJob job = ((JobSubmitted) event.data()).job();
        assertThat(job.getMetadata().getNamespace()).as("taken from the subject").isEqualTo("team-a");
        assertThat(job.getSpec().pytorchReplicaSpecs().get("Worker").replicas()).isEqualTo(2);
    }

    @Test
    void anUnreadableSubmissionNamesItsJobSoTheJobCanBeTold() {
        String wrongKind = submission("\"apiVersion: batch/v1\\nkind: Job\\nmetadata: {name: train}\\n\"");
        String otherName = submission(MANIFEST.replace("\"name\":\"train\"", "\"name\":\"other\""));

        assertThatThrownBy(() -> EventSerde.deserialize(wrongKind.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(MalformedEventException.class, e -> {
                    assertThat(e.job()).contains(new JobRef("team-a", "train", "u-1"));
                    assertThat(e.getMessage()).startsWith("submitted manifest: unknown kind \"Job\" (apiVersion \"batch/v1\")");
                });
        assertThatThrownBy(() -> EventSerde.deserialize(otherName.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("submitted manifest is team-a/other but the event's subject is team-a/train");
    }

    @Test
    void anEmptyRecordIsRefused() {
        assertThatThrownBy(() -> EventSerde.deserialize(new byte[0])).hasMessage("empty record");
        assertThatThrownBy(() -> EventSerde.deserialize(null)).hasMessage("empty record");
    }

    @Test
    void everyTopicIsListedOnce() {
        assertThat(Topics.ALL).doesNotHaveDuplicates().hasSize(11);
        assertThat(Arrays.stream(EventType.values()).filter(EventType::isJobEvent).map(EventType::cloudEventType))
                .allMatch(type -> type.startsWith("dev.muster.job."));
        assertThat(Arrays.stream(EventType.values()).filter(EventType::isMemberEvent).map(EventType::cloudEventType))
                .allMatch(type -> type.startsWith("dev.muster.member."));
        assertThat(Arrays.stream(EventType.values()).filter(type -> !type.isJobEvent() && !type.isMemberEvent()).map(EventType::cloudEventType))
                .allMatch(type -> type.startsWith("dev.muster.config."));
    }

    @Test
    void theTypeIsReadFromTheTopLevelAttributesWhereverItIsNotFromTheData() {
        byte[] typeLast = ("{\"data\":{\"type\":\"dev.muster.job.deleted\",\"items\":[{\"type\":\"x\"}]},\"specversion\":\"1.0\","
                + "\"type\":\"dev.muster.job.bound\"}").getBytes(StandardCharsets.UTF_8);
        JobEvent submitted = JobEvent.create("/client", JOB, TIME, new JobSubmitted(Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), PyTorchJob.class)));

        assertThat(EventSerde.peekType(typeLast)).contains(EventType.BOUND);
        assertThat(EventSerde.peekType(EventSerde.serialize(submitted))).contains(EventType.SUBMITTED);
    }

    @Test
    void noTypeIsReadFromARecordThatNamesNoKnownOne() {
        assertThat(EventSerde.peekType("{oops".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(EventSerde.peekType("[1]".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(EventSerde.peekType("{\"type\":\"dev.muster.job.nonsense\"}".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(EventSerde.peekType("{\"type\":{\"name\":\"dev.muster.job.bound\"}}".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(EventSerde.peekType(new byte[0])).isEmpty();
    }
}
