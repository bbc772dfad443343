package dev.muster.statussync.kubernetes;

import java.io.IOException;

import dev.muster.fleetclient.raw.RawRequests;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.PyTorchJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;

/**
 * The fleet job writes status sync makes most (a status patch per state change, the Kafka path's creation), whose
 * answers it reads only the head of ({@link JobHeads}): the API server answers each with the whole job, pod templates
 * and all, which fabric8's operations bind into the job's model.
 */
final class JobHeadRequests {

    private static final String JSON = "application/json";
    private static final String JSON_PATCH = "application/json-patch+json";

    private final KubernetesClient fleet;

    JobHeadRequests(KubernetesClient fleet) {
        this.fleet = fleet;
    }

    /** Applies a JSON patch to the job's status; the job as the server answers, with its metadata and status only. */
    PyTorchJob patchStatus(JobRef job, String patch) {
        return send(RawRequests.request(fleet, RawRequests.url(fleet, "apis", PyTorchJob.GROUP, PyTorchJob.VERSION, "namespaces",
                job.namespace(), PyTorchJob.PLURAL, job.name(), "status")).method("PATCH", JSON_PATCH, patch).build());
    }

    /** Creates the job; the job as the server answers, with its metadata and status only. */
    PyTorchJob create(JobRef job, PyTorchJob manifest) {
        return send(RawRequests.request(fleet, RawRequests.url(fleet, "apis", PyTorchJob.GROUP, PyTorchJob.VERSION, "namespaces",
                job.namespace(), PyTorchJob.PLURAL)).post(JSON, fleet.getKubernetesSerialization().asJson(manifest)).build());
    }

    private PyTorchJob send(HttpRequest request) {
        byte[] answer = RawRequests.send(fleet, request);
        try {
            return JobHeads.read(answer);
        } catch (IOException | RuntimeException e) {
            throw RawRequests.unreadable(request, e);
        }
    }
}
