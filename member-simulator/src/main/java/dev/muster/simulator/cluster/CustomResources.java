package dev.muster.simulator.cluster;

import java.util.List;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.quota.ElasticQuotaTree;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;

/**
 * Registers custom resource definitions on a mock API server, each with its status subresource, so that
 * status writes behave as on a real API server.
 */
public final class CustomResources {

    /** What the fleet API server serves: jobs, policies, the quota tree, and Kube Queue's queues and queue units. */
    public static final List<Class<? extends CustomResource<?, ?>>> FLEET = List.of(PyTorchJob.class, PropagationPolicy.class,
            ElasticQuotaTree.class, Queue.class, QueueUnit.class);

    private CustomResources() {
    }

    /** Registers the definition of one custom resource type. */
    public static void register(KubernetesClient client, Class<? extends CustomResource<?, ?>> type) {
        client.apiextensions().v1().customResourceDefinitions().resource(withStatus(type)).create();
    }

    /** Registers what the fleet API server serves ({@link #FLEET}). */
    public static void registerFleet(KubernetesClient client) {
        FLEET.forEach(type -> register(client, type));
    }

    private static CustomResourceDefinition withStatus(Class<? extends CustomResource<?, ?>> type) {
        return CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type)
                .editSpec().editFirstVersion()
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .endVersion().endSpec().build();
    }
}
