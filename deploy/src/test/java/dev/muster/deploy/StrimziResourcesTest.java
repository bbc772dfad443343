package dev.muster.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.KafkaAccess;
import dev.muster.model.event.Topics;
import dev.muster.testing.kafka.KafkaAcls;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.nodepool.ProcessRoles;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.api.kafka.model.user.KafkaUserAuthorizationSimple;
import io.strimzi.api.kafka.model.user.KafkaUserScramSha512ClientAuthentication;
import io.strimzi.api.kafka.model.user.acl.AclRule;
import io.strimzi.api.kafka.model.user.acl.AclRuleGroupResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTopicResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTransactionalIdResource;

/**
 * The Kafka the chart asks Strimzi for, read into Strimzi's own model: KRaft node pools, a TLS listener with SCRAM
 * users and ACLs enforced, exactly Muster's topics with their partitions, replication and compaction, and for each
 * service a user allowed exactly what its {@link KafkaAccess} declares (the ACLs the secured tests run with).
 */
class StrimziResourcesTest {

    private final RenderedChart chart = RenderedChart.render(Map.of(), Path.of("src", "test", "resources", "values-full.yaml"));

    @Test
    void aKraftClusterOfBrokerAndControllerPoolsWithOneScramTlsListenerAndAclsEnforced() {
        Kafka kafka = chart.named(Kafka.class, "muster");

        assertThat(kafka.getSpec().getKafka().getListeners()).singleElement().satisfies(listener -> {
            assertThat(listener.isTls()).isTrue();
            assertThat(listener.getPort()).isEqualTo(9093);
            assertThat(listener.getAuth().getType()).isEqualTo("scram-sha-512");
        });
        assertThat(kafka.getSpec().getKafka().getAuthorization().getType()).isEqualTo("simple");
        assertThat(kafka.getSpec().getKafka().getConfig()).containsEntry("auto.create.topics.enable", false)
                .containsEntry("min.insync.replicas", 2).containsEntry("transaction.state.log.min.isr", 2);
        assertThat(chart.all(KafkaNodePool.class)).extracting(pool -> pool.getSpec().getRoles() + "x" + pool.getSpec().getReplicas())
                .containsExactlyInAnyOrder(List.of(ProcessRoles.BROKER) + "x3", List.of(ProcessRoles.CONTROLLER) + "x3");
        assertThat(chart.all(KafkaNodePool.class)).allSatisfy(pool ->
                assertThat(pool.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", "muster"));
    }

    @Test
    void everyTopicMusterUsesAndOnlyThoseWithTheirPartitionsAndCleanup() {
        List<KafkaTopic> topics = chart.all(KafkaTopic.class);

        assertThat(topics).extracting(topic -> topic.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(
                Stream.concat(Topics.ALL.stream(), Stream.of(Topics.inboxOf("team-a-ci"))).toList());
        for (KafkaTopic topic : topics) {
            String name = topic.getMetadata().getName();
            assertThat(topic.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", "muster");
            assertThat(topic.getSpec().getPartitions()).as(name).isEqualTo(Topics.SINGLE_PARTITION.contains(name) ? 1 : 6);
            assertThat(topic.getSpec().getReplicas()).as(name).isEqualTo(3);
            assertThat(topic.getSpec().getConfig()).as(name).containsEntry("min.insync.replicas", 2)
                    .containsEntry("cleanup.policy", Topics.COMPACTED.contains(name) ? "compact" : "delete");
            if (!Topics.COMPACTED.contains(name)) {
                assertThat(topic.getSpec().getConfig()).as(name).containsEntry("retention.ms", 604800000);
            }
        }
    }

    @Test
    void eachServicesUserMayDoExactlyWhatItsKafkaAccessDeclares() {
        for (KafkaAccess access : KafkaAccess.SERVICES) {
            KafkaUser user = chart.named(KafkaUser.class, access.service());

            assertThat(user.getSpec().getAuthentication()).isInstanceOf(KafkaUserScramSha512ClientAuthentication.class);
            assertThat(rules(user)).as(access.service()).containsExactlyInAnyOrderElementsOf(
                    KafkaAcls.forService(access, access.service()).stream().map(StrimziResourcesTest::rule).toList());
        }
    }

    @Test
    void aSubmitterMayWriteItsOwnInboxAndNothingElse() {
        KafkaUser submitter = chart.named(KafkaUser.class, "team-a-ci");

        assertThat(rules(submitter)).containsExactlyElementsOf(KafkaAcls.forSubmitter("team-a-ci").stream().map(StrimziResourcesTest::rule).toList());
    }

    /** Each rule of the user as {@code type name pattern operation}, one operation each. */
    private static List<String> rules(KafkaUser user) {
        KafkaUserAuthorizationSimple authorization = (KafkaUserAuthorizationSimple) user.getSpec().getAuthorization();
        return authorization.getAcls().stream().flatMap(rule -> rule.getOperations().stream().map(operation -> resource(rule) + " "
                + operation.toValue().toUpperCase(Locale.ROOT))).toList();
    }

    private static String resource(AclRule rule) {
        if (rule.getResource() instanceof AclRuleTopicResource topic) {
            return "TOPIC " + topic.getName() + " " + topic.getPatternType().toValue().toUpperCase(Locale.ROOT);
        }
        if (rule.getResource() instanceof AclRuleGroupResource group) {
            return "GROUP " + group.getName() + " " + group.getPatternType().toValue().toUpperCase(Locale.ROOT);
        }
        AclRuleTransactionalIdResource transactionalId = (AclRuleTransactionalIdResource) rule.getResource();
        return "TRANSACTIONAL_ID " + transactionalId.getName() + " " + transactionalId.getPatternType().toValue().toUpperCase(Locale.ROOT);
    }

    /** Kafka's binding in the same form; Strimzi says {@code prefix} where Kafka says {@code PREFIXED}. */
    private static String rule(AclBinding binding) {
        String pattern = binding.pattern().patternType().name().replace("PREFIXED", "PREFIX");
        return binding.pattern().resourceType().name() + " " + binding.pattern().name() + " " + pattern + " " + binding.entry().operation().name();
    }
}
