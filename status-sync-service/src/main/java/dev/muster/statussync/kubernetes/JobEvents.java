package dev.muster.statussync.kubernetes;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobRef;
import dev.muster.statussync.core.fleet.FleetWrite;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * A job's Kubernetes Events, recorded as Kubernetes' own recorder does: an occurrence like an earlier one (the same
 * type, reason, message and source on the same job) is counted on that Event, a series, rather than made a new
 * object, so that {@code kubectl describe} shows {@code (x12 over 10m)} where a job that fits nowhere was refused twelve
 * times. Each occurrence counts once: one read again after a restart (no later than the series' last) is not counted
 * again. A repeat is one request, over the series as last written; an Event the API server dropped (they expire) is
 * begun again.
 */
final class JobEvents {

    /** When the series' last occurrence was decided, to the nanosecond: what tells a new occurrence from one read again. */
    static final String LAST_OCCURRENCE = "muster.dev/last-occurrence";
    private static final int ATTEMPTS = 3;

    private final KubernetesClient fleet;
    /** Each series as last written or read, by namespace and name, the most recently used kept. */
    private final Map<String, Event> series;

    JobEvents(KubernetesClient fleet, int remembered) {
        this.fleet = fleet;
        this.series = RememberedObjects.lru(remembered);
    }

    /** Records one occurrence on the job, whose fleet object is {@code involved}. */
    void record(FleetWrite.RecordEvent write, ObjectReference involved) {
        JobRef job = write.job();
        // Named after what it says: an occurrence like an earlier one finds that one's Event.
        String name = EventNames.of(job.name(), String.join("\n", job.uid(), write.type(), write.reason(), write.component(), write.message()));
        String key = job.namespace() + "/" + name;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Event known = series.get(key);
            if (known == null) {
                Optional<Event> created = create(job, name, write, involved);
                if (created.isPresent()) {
                    series.put(key, created.get());
                    return;
                }
                known = fleet.v1().events().inNamespace(job.namespace()).withName(name).get();
                if (known == null) {
                    continue;
                }
            }
            if (!write.time().isAfter(lastOccurrence(known))) {
                // Counted already: the same occurrence read again.
                series.put(key, known);
                return;
            }
            String time = write.time().toString();
            String patch = VersionedPatch.of(fleet.getKubernetesSerialization(), null, known.getMetadata().getResourceVersion(),
                    Map.of("op", "add", "path", "/count", "value", (known.getCount() == null ? 1 : known.getCount()) + 1),
                    Map.of("op", "add", "path", "/lastTimestamp", "value", time),
                    Map.of("op", "add", "path", "/metadata/annotations", "value", Map.of(LAST_OCCURRENCE, time)));
            try {
                series.put(key, fleet.v1().events().inNamespace(job.namespace()).resource(known).patch(PatchContext.of(PatchType.JSON), patch));
                return;
            } catch (KubernetesClientException e) {
                series.remove(key);
                if (e.getCode() != 404 && e.getCode() != 422 && e.getCode() != 409) {
                    throw e;
                }
                // Changed since it was written (read it again) or gone (begin it again).
            }
        }
        throw new KubernetesClientException("the Event " + key + " changed during each of " + ATTEMPTS + " attempts to count an occurrence", 409, null);
    }

    /** The series begun with this occurrence; empty when an Event of its name is there already. */
    private Optional<Event> create(JobRef job, String name, FleetWrite.RecordEvent write, ObjectReference involved) {
        String time = write.time().toString();
        Event event = new EventBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(job.namespace()).withAnnotations(Map.of(LAST_OCCURRENCE, time)).build())
                .withInvolvedObject(involved)
                .withType(write.type()).withReason(write.reason()).withMessage(write.message())
                .withNewSource().withComponent(write.component()).endSource()
                .withReportingComponent(write.component())
                .withFirstTimestamp(time).withLastTimestamp(time).withCount(1)
                .build();
        try {
            return Optional.of(fleet.v1().events().inNamespace(job.namespace()).resource(event).create());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            return Optional.empty();
        }
    }

    /** When the series' last occurrence was decided; its last timestamp (to the second) for an Event without the annotation. */
    private static Instant lastOccurrence(Event event) {
        String annotated = event.getMetadata().getAnnotations() == null ? null : event.getMetadata().getAnnotations().get(LAST_OCCURRENCE);
        for (String time : new String[] {annotated, event.getLastTimestamp()}) {
            if (time != null) {
                try {
                    return Instant.parse(time);
                } catch (DateTimeParseException e) {
                    // The next, or none.
                }
            }
        }
        return Instant.EPOCH;
    }
}
