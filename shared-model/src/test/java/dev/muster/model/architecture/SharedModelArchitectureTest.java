package dev.muster.model.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The shared model holds types only (API types, events, quantities, validators): no service framework, no messaging
 * client, no Kubernetes client, no logging or threads. What processes events lives in the service runtime
 * ({@code service-runtime}), what configures clients in {@code fleet-client}.
 */
@AnalyzeClasses(packages = "dev.muster.model", importOptions = ImportOption.DoNotIncludeTests.class)
class SharedModelArchitectureTest {

    @ArchTest
    static final ArchRule noFrameworkCode = noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.quarkus..", "io.smallrye..", "io.vertx..", "jakarta.enterprise..", "jakarta.inject..",
            "org.apache.kafka..", "org.eclipse.microprofile..", "org.jboss.logging..", "java.util.logging..", "java.util.concurrent..")
            .because("shared-model holds API types, arithmetic and events that every service and simulation uses as plain values");

    /** The custom resources extend fabric8's CustomResource, the one client type an API type is made of. */
    @ArchTest
    static final ArchRule noKubernetesClient = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.fabric8.kubernetes.client..").and(not(name("io.fabric8.kubernetes.client.CustomResource"))))
            .because("clients, their configuration and their token refresh belong to fleet-client");

    @ArchTest
    static final ArchRule noLogging = noClasses().should().dependOnClassesThat(name("java.lang.System$Logger"))
            .because("types decide nothing worth an operator's log line; the services log their decisions");
}
