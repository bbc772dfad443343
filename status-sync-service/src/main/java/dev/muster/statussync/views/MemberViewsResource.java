package dev.muster.statussync.views;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.muster.model.job.GangPod;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.member.MemberPodRow;
import dev.muster.model.job.PyTorchJob;
import dev.muster.runtime.views.CurrentViewer;
import dev.muster.runtime.views.ViewCredentialsFilter;
import dev.muster.statussync.kubernetes.MemberWatches;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The per-member views of the vendor's {@code kubectl amc}, served from what the member watches observe: each
 * member's health, PyTorchJobs on every member with their adoption, the pods of training jobs on every member,
 * and one member's copy of a job in full (read from the member). Rows are sorted by name, then cluster.
 */
@Path("/api/v1/members")
@Produces(MediaType.APPLICATION_JSON)
public class MemberViewsResource {

    private final MemberWatches members;
    private final CurrentViewer viewer;

    MemberViewsResource(MemberWatches members, CurrentViewer viewer) {
        this.members = members;
        this.viewer = viewer;
    }

    /** Each watched member's health: whether its API answers, since when it has not, and which nodes are NotReady. */
    @GET
    public List<MemberWatches.MemberHealth> members() {
        requireWatching();
        return members.health();
    }

    /**
     * Every PyTorchJob on every member the viewer may see, optionally of one namespace; on a member that does not answer,
     * in state Unknown.
     */
    @GET
    @Path("/pytorchjobs")
    public List<MemberJobRow> jobs(@QueryParam("namespace") String namespace) {
        requireWatching();
        Set<String> unreachable = unreachable();
        List<MemberJobRow> rows = new ArrayList<>();
        for (Map.Entry<String, List<PyTorchJob>> member : members.jobs().entrySet()) {
            member.getValue().stream().filter(job -> namespace == null || namespace.equals(job.getMetadata().getNamespace()))
                    .filter(job -> viewer.get().maySee(job.getMetadata().getNamespace()))
                    .map(job -> MemberJobRow.of(member.getKey(), job))
                    .forEach(row -> rows.add(unreachable.contains(row.cluster()) ? row.unknown() : row));
        }
        rows.sort(Comparator.comparing(MemberJobRow::name).thenComparing(MemberJobRow::cluster));
        return rows;
    }

    /** The pods of training jobs on every member the viewer may see, optionally of one namespace; on a member that does not answer, Unknown. */
    @GET
    @Path("/pods")
    public List<MemberPodRow> pods(@QueryParam("namespace") String namespace) {
        requireWatching();
        Set<String> unreachable = unreachable();
        List<MemberPodRow> rows = new ArrayList<>();
        members.pods().forEach((cluster, pods) -> pods.stream()
                .filter(pod -> pod.getMetadata().getLabels() != null && pod.getMetadata().getLabels().containsKey(GangPod.JOB_NAME_LABEL))
                .filter(pod -> namespace == null || namespace.equals(pod.getMetadata().getNamespace()))
                .filter(pod -> viewer.get().maySee(pod.getMetadata().getNamespace()))
                .map(pod -> MemberPodRow.of(cluster, pod))
                .forEach(row -> rows.add(unreachable.contains(cluster) ? row.unknown() : row)));
        rows.sort(Comparator.comparing(MemberPodRow::name).thenComparing(MemberPodRow::cluster));
        return rows;
    }

    /** A standby watches no member: its views would show an empty fleet, so they say why they show nothing. */
    private void requireWatching() {
        members.notWatchingBecause().ifPresent(reason -> {
            throw new ServiceUnavailableException(Response.status(503).type(MediaType.APPLICATION_JSON).entity(Map.of("error", reason)).build());
        });
    }

    private Set<String> unreachable() {
        return members.health().stream().filter(health -> !health.reachable()).map(MemberWatches.MemberHealth::cluster).collect(Collectors.toSet());
    }

    /** One member's copy of a job, as the member has it. */
    @GET
    @Path("/{cluster}/pytorchjobs/{namespace}/{name}")
    public PyTorchJob job(@PathParam("cluster") String cluster, @PathParam("namespace") String namespace, @PathParam("name") String name) {
        if (!viewer.get().maySee(namespace)) {
            throw new ForbiddenException(ViewCredentialsFilter.forbidden(viewer.get(), namespace));
        }
        requireWatching();
        if (!members.watches(cluster)) {
            throw new NotFoundException(Response.status(404).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "no member cluster named \"" + cluster + "\" is watched")).build());
        }
        Optional<PyTorchJob> copy;
        try {
            copy = members.job(cluster, namespace, name);
        } catch (KubernetesClientException e) {
            throw new ServiceUnavailableException(Response.status(503).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "member cluster " + cluster + " does not answer (" + e.getMessage()
                            + "); its copies' last known state is in /api/v1/members/pytorchjobs")).build());
        }
        return copy.orElseThrow(() -> new NotFoundException(Response.status(404)
                .type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "no PyTorchJob " + namespace + "/" + name + " on member cluster " + cluster)).build()));
    }
}
