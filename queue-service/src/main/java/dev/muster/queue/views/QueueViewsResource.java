package dev.muster.queue.views;

import java.util.List;

import java.util.Map;

import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.muster.model.queue.JobQueueView;
import dev.muster.model.quota.ConfigInForce;
import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.queue.kafka.QueueStateStore;
import dev.muster.runtime.views.CurrentViewer;
import dev.muster.runtime.views.ViewCredentialsFilter;

/**
 * The queues as the queue service holds them now: each quota node's usage against its min and max and what
 * waits under it, and where one job stands.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class QueueViewsResource {

    private final QueueStateStore store;
    private final CurrentViewer viewer;

    QueueViewsResource(QueueStateStore store, CurrentViewer viewer) {
        this.store = store;
        this.viewer = viewer;
    }

    /** One row per node and resource, root first; empty before a tree is applied. */
    @GET
    @Path("/queues")
    public List<QuotaUsageRow> usage() {
        requireRestored();
        return store.usageReport();
    }

    /** The tree in force, and the refused changes of policies and trees the viewer may see (the tree's are in kube-system), with why. */
    @GET
    @Path("/config")
    public ConfigInForce config() {
        requireRestored();
        ConfigInForce config = store.configInForce();
        return new ConfigInForce(config.treeInForce(), config.refused().stream().filter(refusal -> viewer.get().maySee(refusal.namespace())).toList());
    }

    /**
     * A queue that has not read its state back from the log since it started (a restart, a standby) holds no jobs and no
     * usage: it answers 503 rather than show empty queues, which a user would take for the fleet's.
     */
    private void requireRestored() {
        if (!store.restored()) {
            throw new ServiceUnavailableException(Response.status(503).type(MediaType.APPLICATION_JSON).entity(Map.of("error",
                    "the queue service has not restored its state from the log yet (it is starting, or a standby): ask again in a moment"))
                    .build());
        }
    }

    /** Where the job stands: its state, queue, position and reason, with its manifest and policy. */
    @GET
    @Path("/jobs/{namespace}/{name}")
    public JobQueueView job(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        if (!viewer.get().maySee(namespace)) {
            throw new ForbiddenException(ViewCredentialsFilter.forbidden(viewer.get(), namespace));
        }
        requireRestored();
        return store.view(namespace, name).orElseThrow(() -> new NotFoundException(Response.status(404).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "the queue service holds no job " + namespace + "/" + name
                        + " (jobs admitted without queueing, and finished ones, are not held)")).build()));
    }
}
