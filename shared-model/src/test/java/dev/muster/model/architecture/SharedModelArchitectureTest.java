package dev.muster.model.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The shared model is plain Java: no service framework, no messaging client, no Kubernetes client calls. */
@AnalyzeClasses(packages = "dev.muster.model", importOptions = ImportOption.DoNotIncludeTests.class)
class SharedModelArchitectureTest {

    @ArchTest
    static final ArchRule noFrameworkCode = noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "io.quarkus..", "io.smallrye..", "io.vertx..", "jakarta.enterprise..", "jakarta.inject..",
            "org.apache.kafka..", "org.eclipse.microprofile..",
            "io.fabric8.kubernetes.client.dsl..", "io.fabric8.kubernetes.client.informers..")
            .because("shared-model holds API types, arithmetic and events that every service and simulation uses as plain values");
}
