package dev.muster.testing.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering every Muster service keeps: its decision core is plain Java that unit tests and
 * simulations drive directly, and Kafka, Kubernetes clients and Quarkus live only in the adapters.
 */
public final class CoreRules {

    private CoreRules() {
    }

    /** The core package may use only Java, the shared model, fabric8's model types and itself. */
    public static ArchRule coreIsPlainJava(String corePackage) {
        return classes().that().resideInAPackage(corePackage + "..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "java..", "dev.muster.model..", "io.fabric8.kubernetes.api.model..", corePackage + "..")
                .because("the decision core must run without Kafka, Kubernetes clients or Quarkus, so tests and simulations can drive it");
    }
}
