package dev.muster.testing.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The layering every Muster service keeps: its decision core is plain Java that unit tests and simulations drive
 * directly; Kafka, Kubernetes clients and Quarkus live only in the adapters around it; the adapters never import each
 * other (the service's engine, which wires the core to both, is the only place that sees both); and no two packages
 * of a service depend on each other.
 */
public final class CoreRules {

    private CoreRules() {
    }

    /**
     * The core package may use only Java, the shared model, the gang packing (plain Java itself, by the same rule),
     * fabric8's model types and itself. fabric8's model types
     * ({@code io.fabric8.kubernetes.api.model}) stay allowed: they are the plain data classes users' manifests are made
     * of (ObjectMeta, PodTemplateSpec, Quantity), with no client, I/O or framework behind them, and the cores decide on
     * those manifests; declaring Muster's own copies would duplicate Kubernetes' API for nothing. fabric8's client
     * ({@code io.fabric8.kubernetes.client}) is not allowed.
     */
    public static ArchRule coreIsPlainJava(String corePackage) {
        return classes().that().resideInAPackage(corePackage + "..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "java..", "dev.muster.model..", "dev.muster.gangfit..", "io.fabric8.kubernetes.api.model..", corePackage + "..")
                .because("the decision core must run without Kafka, Kubernetes clients or Quarkus, so tests and simulations can drive it");
    }

    /** The service's Kafka adapter ({@code kafka}) imports neither its Kubernetes adapter nor its HTTP views. */
    public static ArchRule kafkaAdapterIsIndependent(String servicePackage) {
        return noClasses().that().resideInAPackage(servicePackage + ".kafka..")
                .should().dependOnClassesThat().resideInAPackage(servicePackage + ".kubernetes..")
                .orShould().dependOnClassesThat().resideInAPackage(servicePackage + ".views..")
                .because("an adapter is replaceable on its own: what both need goes through the core or the service's engine");
    }

    /** The service's Kubernetes adapter ({@code kubernetes}) imports neither its Kafka adapter nor its HTTP views. */
    public static ArchRule kubernetesAdapterIsIndependent(String servicePackage) {
        return noClasses().that().resideInAPackage(servicePackage + ".kubernetes..")
                .should().dependOnClassesThat().resideInAPackage(servicePackage + ".kafka..")
                .orShould().dependOnClassesThat().resideInAPackage(servicePackage + ".views..")
                .because("an adapter is replaceable on its own: what both need goes through the core or the service's engine");
    }

    /** No two of the service's packages depend on each other, directly or through others. */
    public static ArchRule packagesAreFreeOfCycles(String servicePackage) {
        return slices().matching(servicePackage + ".(*)..").should().beFreeOfCycles();
    }

    /** Every rule above for one service: its core plain Java, its adapters independent, its packages free of cycles. */
    public static ArchRule serviceLayering(String servicePackage) {
        return CompositeArchRule.of(coreIsPlainJava(servicePackage + ".core")).and(kafkaAdapterIsIndependent(servicePackage))
                .and(kubernetesAdapterIsIndependent(servicePackage)).and(packagesAreFreeOfCycles(servicePackage));
    }
}
