package dev.muster.runtime.views;

import java.util.AbstractMap;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/**
 * Makes {@link ViewAccess} from the configuration at start (a viewer configured wrong stops the service at once, not at
 * its first view request), and says whether the views need credentials.
 */
public class ViewAccessBeans {

    private static final Logger LOG = Logger.getLogger(ViewAccessBeans.class);

    @Produces
    @Singleton
    ViewAccess viewAccess(ViewsConfig config) {
        return ViewAccess.of(config.viewers().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                entry -> new AbstractMap.SimpleImmutableEntry<>(entry.getValue().tokenSha256(), entry.getValue().namespaces()))));
    }

    void onStart(@Observes StartupEvent event, ViewAccess access) {
        if (access.isOpen()) {
            LOG.info("the HTTP views need no credentials (no muster.views.viewers configured)");
        } else {
            LOG.infof("the HTTP views take the bearer tokens of %d configured viewers", access.viewers());
        }
    }
}
