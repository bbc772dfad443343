package dev.muster.testing.kafka;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import dev.muster.model.event.KafkaAccess;
import dev.muster.model.event.Topics;

/**
 * The ACLs of a secured cluster, from {@link KafkaAccess}: each service may read and write its own topics and use its
 * own groups and transactional ids, nothing more; a submitter may write its own inbox and nothing else. READ and WRITE
 * imply DESCRIBE in Kafka, so these are all the bindings there are.
 */
public final class KafkaAcls {

    private KafkaAcls() {
    }

    /** What the service's user, {@code User:<user>}, may do. */
    public static List<AclBinding> forService(KafkaAccess access, String user) {
        String principal = "User:" + user;
        List<AclBinding> acls = new ArrayList<>();
        access.reads().forEach(topic -> acls.add(allow(principal, ResourceType.TOPIC, topic, PatternType.LITERAL, AclOperation.READ)));
        if (access.readsInboxes()) {
            acls.add(allow(principal, ResourceType.TOPIC, Topics.INBOX_PREFIX, PatternType.PREFIXED, AclOperation.READ));
        }
        access.writes().forEach(topic -> acls.add(allow(principal, ResourceType.TOPIC, topic, PatternType.LITERAL, AclOperation.WRITE)));
        acls.add(allow(principal, ResourceType.GROUP, access.groupPrefix(), PatternType.PREFIXED, AclOperation.READ));
        if (access.transactional()) {
            acls.add(allow(principal, ResourceType.TRANSACTIONAL_ID, access.transactionalIdPrefix(), PatternType.PREFIXED, AclOperation.WRITE));
        }
        return acls;
    }

    /** What a submitter, {@code User:<principal>}, may do: write its own inbox. */
    public static List<AclBinding> forSubmitter(String principal) {
        return List.of(allow("User:" + principal, ResourceType.TOPIC, Topics.inboxOf(principal), PatternType.LITERAL, AclOperation.WRITE));
    }

    private static AclBinding allow(String principal, ResourceType type, String name, PatternType pattern, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern), new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }
}
