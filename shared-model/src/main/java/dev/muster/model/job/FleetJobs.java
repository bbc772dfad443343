package dev.muster.model.job;

import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The fleet API's PyTorchJob objects and Muster's events about them. A job applied with {@code kubectl} is
 * known in events by its object's UID; a job submitted on the Kafka path gets a fleet object written by Muster,
 * so that {@code kubectl get pytorchjob} shows every job, and that object carries the UID of its events.
 */
public final class FleetJobs {

    /** The {@code source} of the events the fleet API ingress sends for objects users apply. */
    public static final String INGRESS_SOURCE = "/muster/fleet-ingress";
    /** Marks a fleet object Muster wrote for a job submitted on the Kafka path. */
    public static final String SUBMITTED_VIA = "muster.dev/submitted-via";
    public static final String KAFKA = "kafka";

    private FleetJobs() {
    }

    /**
     * The fleet object for a job submitted on the Kafka path: its manifest, marked with the UID of its events. The spec
     * is the submitted one's, not a copy: a manifest read from an event is written as it is and changed by no one.
     */
    public static PyTorchJob forKafkaSubmission(PyTorchJob submitted, String uid) {
        PyTorchJob object = new PyTorchJob();
        object.setApiVersion(submitted.getApiVersion());
        object.setKind(submitted.getKind());
        object.setSpec(submitted.getSpec());
        ObjectMeta source = submitted.getMetadata();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(source.getName());
        metadata.setNamespace(source.getNamespace());
        Map<String, String> labels = new HashMap<>(source.getLabels() == null ? Map.of() : source.getLabels());
        labels.put(MemberJobs.FLEET_JOB_UID, uid);
        metadata.setLabels(labels);
        Map<String, String> annotations = new HashMap<>(source.getAnnotations() == null ? Map.of() : source.getAnnotations());
        annotations.put(SUBMITTED_VIA, KAFKA);
        metadata.setAnnotations(annotations);
        object.setMetadata(metadata);
        object.setStatus(null);
        return object;
    }

    /** Whether Muster wrote this fleet object for a job submitted on the Kafka path. */
    public static boolean isKafkaSubmission(HasMetadata fleetObject) {
        Map<String, String> annotations = fleetObject.getMetadata().getAnnotations();
        Map<String, String> labels = fleetObject.getMetadata().getLabels();
        return annotations != null && KAFKA.equals(annotations.get(SUBMITTED_VIA)) && labels != null && labels.containsKey(MemberJobs.FLEET_JOB_UID);
    }

    /** The UID Muster's events give the job this fleet object stands for. */
    public static String eventUid(HasMetadata fleetObject) {
        return isKafkaSubmission(fleetObject) ? fleetObject.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID)
                : fleetObject.getMetadata().getUid();
    }
}
