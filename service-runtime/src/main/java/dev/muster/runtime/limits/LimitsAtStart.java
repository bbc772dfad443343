package dev.muster.runtime.limits;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import dev.muster.model.validation.Limits;
import io.quarkus.runtime.StartupEvent;

/**
 * Sets the process's {@link Limits} from the configuration before anything else starts, so the first record a consumer
 * reads is already judged by them; a limit configured out of range stops the service at once, naming it.
 */
public class LimitsAtStart {

    private static final Logger LOG = Logger.getLogger(LimitsAtStart.class);

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, LimitsConfig config) {
        Limits limits = new Limits(config.maxObjectBytes(), config.maxPodsPerGang());
        Limits.use(limits);
        if (!limits.equals(Limits.DEFAULTS)) {
            LOG.infof("limits: objects of at most %d bytes, gangs of at most %d pods", limits.maxObjectBytes(), limits.maxPodsPerGang());
        }
    }
}
