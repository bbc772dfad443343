package dev.muster.simulator.cluster;

import java.util.List;
import java.util.Map;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.quota.ElasticQuotaTree;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
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
        fleetDefinitions().forEach(definition -> client.apiextensions().v1().customResourceDefinitions().resource(definition).create());
    }

    /** The definitions of what the fleet API server serves, with the printer columns kubectl shows. */
    public static List<CustomResourceDefinition> fleetDefinitions() {
        return FLEET.stream().map(CustomResources::withStatus).toList();
    }

    private static CustomResourceDefinition withStatus(Class<? extends CustomResource<?, ?>> type) {
        return CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type)
                .editSpec().editFirstVersion()
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withAdditionalPrinterColumns(PRINTER_COLUMNS.getOrDefault(type, List.of()))
                .endVersion().endSpec().build();
    }

    /** As the Kubeflow and Kube Queue definitions declare them: {@code kubectl get pytorchjob} shows NAME STATE AGE. */
    private static final Map<Class<?>, List<CustomResourceColumnDefinition>> PRINTER_COLUMNS = Map.of(
            PyTorchJob.class, List.of(column("State", "string", ".status.conditions[-1:].type"), column("Age", "date", ".metadata.creationTimestamp")),
            QueueUnit.class, List.of(column("Queue", "string", ".spec.queue"), column("Phase", "string", ".status.phase"),
                    column("Age", "date", ".metadata.creationTimestamp")));

    private static CustomResourceColumnDefinition column(String name, String type, String jsonPath) {
        CustomResourceColumnDefinition column = new CustomResourceColumnDefinition();
        column.setName(name);
        column.setType(type);
        column.setJsonPath(jsonPath);
        return column;
    }
}
