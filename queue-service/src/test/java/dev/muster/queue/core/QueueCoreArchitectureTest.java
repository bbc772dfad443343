package dev.muster.queue.core;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import dev.muster.testing.architecture.CoreRules;

@AnalyzeClasses(packages = "dev.muster.queue", importOptions = ImportOption.DoNotIncludeTests.class)
class QueueCoreArchitectureTest {

    @ArchTest
    static final ArchRule layering = CoreRules.serviceLayering("dev.muster.queue");
}
