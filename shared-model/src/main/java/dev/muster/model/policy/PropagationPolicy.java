package dev.muster.model.policy;

import dev.muster.model.config.ConfigStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** How matching jobs propagate to member clusters: gang placement, queueing, cluster affinity and failover. */
@Group(PropagationPolicy.GROUP)
@Version(PropagationPolicy.VERSION)
@Kind(PropagationPolicy.KIND)
@Plural("propagationpolicies")
public class PropagationPolicy extends CustomResource<PropagationPolicySpec, ConfigStatus> implements Namespaced {

    public static final String GROUP = "policy.one.alibabacloud.com";
    public static final String VERSION = "v1alpha1";
    public static final String KIND = "PropagationPolicy";
    public static final String API_VERSION = GROUP + "/" + VERSION;
}
