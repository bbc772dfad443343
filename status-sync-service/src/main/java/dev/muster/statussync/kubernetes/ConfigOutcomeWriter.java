package dev.muster.statussync.kubernetes;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.muster.model.config.ConfigStatus;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.statussync.core.fleet.FleetWrite.ConfigOutcome;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Writes on a PropagationPolicy or the ElasticQuotaTree what the queue service made of its last change: the
 * {@code Accepted} condition of its status, and an Event that {@code kubectl describe} shows. A refused tree thus
 * says so on itself, where the user who applied it looks.
 */
@ApplicationScoped
public class ConfigOutcomeWriter {

    private static final Logger LOG = Logger.getLogger(ConfigOutcomeWriter.class);
    private static final String COMPONENT = "muster";

    private final KubernetesClient fleet;

    ConfigOutcomeWriter(KubernetesClient fleet) {
        this.fleet = fleet;
    }

    void write(ConfigOutcome outcome) {
        ConfigRef object = outcome.object();
        Class<? extends CustomResource<?, ConfigStatus>> type = PropagationPolicy.KIND.equals(object.kind()) ? PropagationPolicy.class
                : ElasticQuotaTree.class;
        CustomResource<?, ConfigStatus> current = fleet.resources(type).inNamespace(object.namespace()).withName(object.name()).get();
        if (current == null) {
            LOG.debugf("%s is not on the fleet API (deleted meanwhile); its outcome is not written", object);
            return;
        }
        String time = outcome.time().toString();
        String status = outcome.accepted() ? "True" : "False";
        Optional<Condition> previous = Optional.ofNullable(current.getStatus()).map(ConfigStatus::conditions).orElse(List.of()).stream()
                .filter(condition -> ConfigStatus.ACCEPTED.equals(condition.getType())).findFirst();
        if (previous.filter(condition -> status.equals(condition.getStatus()) && Objects.equals(outcome.reason(), condition.getReason())
                && Objects.equals(outcome.message(), condition.getMessage())
                && Objects.equals(current.getMetadata().getGeneration(), condition.getObservedGeneration())).isPresent()) {
            // The same outcome of the same version again (a re-list after a restart): nothing new to tell.
            LOG.debugf("%s: %s again, already shown", object, outcome.reason());
            return;
        }
        // As Kubernetes conditions do: the transition time moves when the status does, not on every outcome.
        String since = previous.filter(condition -> status.equals(condition.getStatus())).map(Condition::getLastTransitionTime).orElse(time);
        Condition accepted = new ConditionBuilder().withType(ConfigStatus.ACCEPTED).withStatus(status)
                .withReason(outcome.reason()).withMessage(outcome.message()).withLastTransitionTime(since)
                .withObservedGeneration(current.getMetadata().getGeneration()).build();
        current.setStatus(new ConfigStatus(List.of(accepted)));
        try {
            fleet.resource(current).updateStatus();
        } catch (KubernetesClientException e) {
            // Changed meanwhile: the outcome of that change follows and writes its own condition.
            if (e.getCode() != 409) {
                throw e;
            }
        }
        Event event = new EventBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(EventNames.of(object.name(), outcome.eventId())).withNamespace(object.namespace()).build())
                .withNewInvolvedObject().withApiVersion(current.getApiVersion()).withKind(object.kind()).withNamespace(object.namespace())
                .withName(object.name()).withUid(current.getMetadata().getUid()).endInvolvedObject()
                .withType(outcome.accepted() ? "Normal" : "Warning").withReason(outcome.reason()).withMessage(outcome.message())
                .withNewSource().withComponent(COMPONENT).endSource().withReportingComponent(COMPONENT)
                .withFirstTimestamp(time).withLastTimestamp(time).withCount(1).build();
        try {
            fleet.v1().events().inNamespace(object.namespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        LOG.infof("%s: %s (%s)", object, outcome.reason(), outcome.message());
    }
}
