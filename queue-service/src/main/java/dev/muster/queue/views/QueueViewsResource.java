package dev.muster.queue.views;

import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.queue.kafka.QueueStateStore;

/** The quota tree as the queue service holds it now: each node's usage against its min and max, and what waits under it. */
@Path("/api/v1/queues")
@Produces(MediaType.APPLICATION_JSON)
public class QueueViewsResource {

    private final QueueStateStore store;

    QueueViewsResource(QueueStateStore store) {
        this.store = store;
    }

    /** One row per node and resource, root first; empty before a tree is applied. */
    @GET
    public List<QuotaUsageRow> usage() {
        return store.usageReport();
    }
}
