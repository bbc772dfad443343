package dev.muster.simulator.cluster;

import java.util.List;

import dev.muster.model.crd.MusterCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Registers custom resource definitions on a mock API server, as {@link MusterCrds} generates them from the model
 * (schemas, printer columns, the status subresource), so that status writes, tables and validation behave as on a
 * real API server.
 */
public final class CustomResources {

    private CustomResources() {
    }

    /** Registers the definition of one custom resource type. */
    public static void register(KubernetesClient client, Class<? extends HasMetadata> type) {
        client.apiextensions().v1().customResourceDefinitions().resource(MusterCrds.of(type)).create();
    }

    /** Registers what the fleet API server serves ({@link MusterCrds#FLEET}). */
    public static void registerFleet(KubernetesClient client) {
        fleetDefinitions().forEach(definition -> client.apiextensions().v1().customResourceDefinitions().resource(definition).create());
    }

    /** The definitions of what the fleet API server serves, with the printer columns kubectl shows. */
    public static List<CustomResourceDefinition> fleetDefinitions() {
        return MusterCrds.fleet();
    }
}
