package dev.muster.runtime.tracing;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.OpenTelemetry;

/** One {@link JobTraces} per service, shared by its Kafka and Kubernetes adapters, named as the service names itself. */
public class JobTracesBeans {

    @Produces
    @Singleton
    JobTraces jobTraces(OpenTelemetry openTelemetry, @ConfigProperty(name = "quarkus.application.name") String application) {
        return new JobTraces(openTelemetry, application.startsWith("muster-") ? application.substring("muster-".length()) : application);
    }
}
