package dev.muster.placement.views;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.placement.ClusterFitRow;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.placement.engine.PlacementEngine;

/** Where a job would go if it were placed now: every member cluster, best first, and why each other one cannot take it. */
@Path("/api/v1/fit")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class FitViewResource {

    private final PlacementEngine engine;

    FitViewResource(PlacementEngine engine) {
        this.engine = engine;
    }

    /** Body: {@code {"job": <PyTorchJob>, "policy": <PropagationPolicy or null>}}. Decides nothing. */
    @POST
    public List<ClusterFitRow> fit(JsonNode body) {
        if (!engine.owner()) {
            // A standby, or an owner whose inputs were taken from it, reads no inventory: its answer would be about members
            // as they stood when it last owned them, or about none.
            throw new ServiceUnavailableException(Response.status(503).type(MediaType.APPLICATION_JSON).entity(Map.of("error",
                    "this placement instance does not own the inputs (it is starting, or a standby): ask again in a moment")).build());
        }
        if (body == null || !body.hasNonNull("job")) {
            throw new BadRequestException(Response.status(400).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "the body needs \"job\": a PyTorchJob manifest")).build());
        }
        PyTorchJob job;
        PropagationPolicy policy;
        try {
            job = Manifests.read(body.get("job"), PyTorchJob.class);
            policy = body.hasNonNull("policy") ? Manifests.read(body.get("policy"), PropagationPolicy.class) : null;
        } catch (RuntimeException e) {
            throw new BadRequestException(Response.status(400).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "cannot read the job or policy: " + e.getMessage())).build());
        }
        return engine.explain(job, policy);
    }
}
