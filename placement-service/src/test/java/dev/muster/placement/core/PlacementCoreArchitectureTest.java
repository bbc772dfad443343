package dev.muster.placement.core;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import dev.muster.testing.architecture.CoreRules;

@AnalyzeClasses(packages = "dev.muster.placement", importOptions = ImportOption.DoNotIncludeTests.class)
class PlacementCoreArchitectureTest {

    @ArchTest
    static final ArchRule coreIsPlainJava = CoreRules.coreIsPlainJava("dev.muster.placement.core");

    @ArchTest
    static final ArchRule kafkaAdapterIsIndependent = CoreRules.kafkaAdapterIsIndependent("dev.muster.placement");

    @ArchTest
    static final ArchRule kubernetesAdapterIsIndependent = CoreRules.kubernetesAdapterIsIndependent("dev.muster.placement");

    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = CoreRules.packagesAreFreeOfCycles("dev.muster.placement");
}
