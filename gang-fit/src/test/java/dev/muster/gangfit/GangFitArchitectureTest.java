package dev.muster.gangfit;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import dev.muster.testing.architecture.CoreRules;

/** Placement's core and the simulated members' scheduler both run the packing: it is plain Java like a core. */
@AnalyzeClasses(packages = "dev.muster.gangfit", importOptions = ImportOption.DoNotIncludeTests.class)
class GangFitArchitectureTest {

    @ArchTest
    static final ArchRule plainJava = CoreRules.coreIsPlainJava("dev.muster.gangfit");
}
