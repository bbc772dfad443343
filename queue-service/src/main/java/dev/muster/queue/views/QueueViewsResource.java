package dev.muster.queue.views;

import java.util.List;

import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.muster.model.queue.JobQueueView;
import dev.muster.model.quota.ConfigInForce;
import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.queue.kafka.QueueStateStore;

/**
 * The queues as the queue service holds them now: each quota node's usage against its min and max and what
 * waits under it, and where one job stands.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class QueueViewsResource {

    private final QueueStateStore store;

    QueueViewsResource(QueueStateStore store) {
        this.store = store;
    }

    /** One row per node and resource, root first; empty before a tree is applied. */
    @GET
    @Path("/queues")
    public List<QuotaUsageRow> usage() {
        return store.usageReport();
    }

    /** The tree in force, and the changes of policies and trees that were refused, with why. */
    @GET
    @Path("/config")
    public ConfigInForce config() {
        return store.configInForce();
    }

    /** Where the job stands: its state, queue, position and reason, with its manifest and policy. */
    @GET
    @Path("/jobs/{namespace}/{name}")
    public JobQueueView job(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        return store.view(namespace, name).orElseThrow(() -> new NotFoundException(Response.status(404).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "the queue service holds no job " + namespace + "/" + name
                        + " (jobs admitted without queueing, and finished ones, are not held)")).build()));
    }
}
