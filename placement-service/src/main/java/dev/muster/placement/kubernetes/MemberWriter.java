package dev.muster.placement.kubernetes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import dev.muster.fleetclient.MemberKubeconfig;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobDependencies;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.member.MemberDirectory;
import dev.muster.model.reservation.Reservation;
import dev.muster.placement.config.PlacementConfig;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberHoldings;
import dev.muster.placement.core.binding.MemberResult;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * Carries out placement's writes on member clusters. Every write is idempotent: reservation and job names are
 * deterministic, and an object that already exists counts as written when it carries this fleet job's
 * ownership mark, so a retry or a restart never makes a second copy.
 */
public final class MemberWriter implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MemberWriter.class);

    private final PlacementConfig config;
    private final KubernetesClient fleet;
    private final Map<String, KubernetesClient> clients = new ConcurrentHashMap<>();

    /** @param fleet the fleet API server, where the ConfigMaps and Secrets a job propagates are read */
    public MemberWriter(PlacementConfig config, KubernetesClient fleet) {
        this.config = config;
        this.fleet = fleet;
    }

    /** Carries the command out; the result for those that have one (releases have none). */
    public Optional<MemberResult> execute(MemberCommand command) {
        try {
            KubernetesClient client = client(command.cluster());
            if (command instanceof MemberCommand.Reserve reserve) {
                for (Reservation reservation : reserve.reservations()) {
                    createReservation(client, reservation, command.job().uid());
                }
                LOG.infof("job %s: %d reservations requested on %s", command.job(), reserve.reservations().size(), command.cluster());
                return Optional.empty();
            }
            if (command instanceof MemberCommand.CreateJob create) {
                return Optional.of(createJob(client, create));
            }
            if (command instanceof MemberCommand.Evict evict) {
                return Optional.of(evict(client, evict));
            }
            MemberCommand.Release release = (MemberCommand.Release) command;
            release.reservations().forEach(name -> client.resources(Reservation.class).withName(name).delete());
            LOG.infof("job %s: released %d reservations on %s", command.job(), release.reservations().size(), command.cluster());
            return Optional.empty();
        } catch (KubernetesClientException | IllegalStateException e) {
            String step = command.step();
            LOG.warnf("job %s: %s on %s failed: %s", command.job(), step, command.cluster(), e.getMessage());
            if (command instanceof MemberCommand.Release) {
                return Optional.empty();
            }
            if (command instanceof MemberCommand.CreateJob && e instanceof KubernetesClientException failure && unanswered(failure)) {
                return Optional.of(new MemberResult.Unanswered(command.cluster(), command.job(), step, firstLine(e.getMessage())));
            }
            return Optional.of(new MemberResult.Failed(command.cluster(), command.job(), step, firstLine(e.getMessage())));
        }
    }

    /**
     * Whether the member may have carried out the write although it did not say so: no answer came at all (the connection
     * failed, was cut or timed out), or a server error, which a request the API server had already stored can also end in.
     * A refusal (4xx) is an answer, nothing was written; but a member that asks to be asked later (429) is asked again
     * as one that did not answer is.
     */
    static boolean unanswered(KubernetesClientException failure) {
        return failure.getCode() <= 0 || failure.getCode() >= 500 || failure.getCode() == 429;
    }

    /** What the member holds under Muster's mark: reservations and member jobs, by the fleet job UID on them. */
    public MemberHoldings holdings(String cluster) {
        KubernetesClient client = client(cluster);
        Map<String, String> reservations = new HashMap<>();
        try {
            client.resources(Reservation.class).withLabel(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER).list().getItems()
                    .forEach(reservation -> reservations.put(reservation.getMetadata().getName(),
                            reservation.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID)));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            // The member serves no reservations: it holds none.
        }
        Map<String, String> jobs = new HashMap<>();
        client.resources(PyTorchJob.class).inAnyNamespace().withLabel(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER).list().getItems()
                .forEach(job -> jobs.put(job.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID),
                        job.getMetadata().getNamespace() + "/" + job.getMetadata().getName()));
        reservations.values().removeIf(Objects::isNull);
        jobs.remove(null);
        return new MemberHoldings(cluster, reservations, jobs);
    }

    private static void createReservation(KubernetesClient client, Reservation reservation, String fleetUid) {
        try {
            client.resources(Reservation.class).resource(reservation).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            Reservation existing = client.resources(Reservation.class).withName(reservation.getMetadata().getName()).get();
            if (existing == null || existing.getMetadata().getLabels() == null
                    || !fleetUid.equals(existing.getMetadata().getLabels().get(MemberJobs.FLEET_JOB_UID))) {
                throw new IllegalStateException("reservation " + reservation.getMetadata().getName() + " exists and is not this job's");
            }
        }
    }

    private MemberResult createJob(KubernetesClient client, MemberCommand.CreateJob create) {
        PyTorchJob job = create.memberJob();
        for (JobDependencies.Dependency dependency : create.dependencies()) {
            Optional<String> missing = copy(client, job.getMetadata().getNamespace(), dependency);
            if (missing.isPresent()) {
                return new MemberResult.Failed(create.cluster(), create.job(), "creating the job", missing.get());
            }
        }
        try {
            client.resources(PyTorchJob.class).inNamespace(job.getMetadata().getNamespace()).resource(job).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            PyTorchJob existing = client.resources(PyTorchJob.class).inNamespace(job.getMetadata().getNamespace())
                    .withName(job.getMetadata().getName()).get();
            if (existing == null || !MemberJobs.isOwnedBy(existing, create.job().uid())) {
                return new MemberResult.Failed(create.cluster(), create.job(), "creating the job",
                        "a PyTorchJob " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName()
                                + " exists on the member and is not this fleet job's copy");
            }
        }
        LOG.infof("job %s: created on member %s", create.job(), create.cluster());
        return new MemberResult.JobCreated(create.cluster(), create.job());
    }

    /**
     * Deletes what the member holds of the job: its copy (only if it is this fleet job's), then its pods, which end
     * gracefully as their termination grace period says, and its reservations; and says what was still there. Pods and
     * reservations are found by the fleet job's UID label, which the copy's pod templates carry.
     */
    private static MemberResult evict(KubernetesClient client, MemberCommand.Evict evict) {
        JobRef job = evict.job();
        List<String> left = new ArrayList<>();
        Resource<PyTorchJob> copy = client.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name());
        PyTorchJob existing = copy.get();
        if (existing != null && MemberJobs.isOwnedBy(existing, job.uid())) {
            if (existing.getMetadata().getDeletionTimestamp() == null) {
                copy.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
            }
            left.add("its member copy");
        }
        List<Pod> pods = client.pods().inNamespace(job.namespace()).withLabel(MemberJobs.FLEET_JOB_UID, job.uid()).list().getItems();
        for (Pod pod : pods) {
            if (pod.getMetadata().getDeletionTimestamp() == null) {
                client.pods().inNamespace(job.namespace()).withName(pod.getMetadata().getName()).delete();
            }
        }
        if (!pods.isEmpty()) {
            left.add(pods.size() + (pods.size() == 1 ? " pod" : " pods"));
        }
        List<Reservation> reservations = reservationsOf(client, job.uid());
        reservations.forEach(reservation -> client.resources(Reservation.class).withName(reservation.getMetadata().getName()).delete());
        if (!reservations.isEmpty()) {
            left.add(reservations.size() + (reservations.size() == 1 ? " reservation" : " reservations"));
        }
        LOG.infof("job %s: stopping on member %s; %s", job, evict.cluster(), left.isEmpty() ? "nothing of it is left" : String.join(", ", left) + " still there");
        return new MemberResult.Evicting(evict.cluster(), job, String.join(", ", left));
    }

    /** The reservations Muster made on the member for the fleet job; none on a member that serves no reservations. */
    private static List<Reservation> reservationsOf(KubernetesClient client, String fleetUid) {
        try {
            return client.resources(Reservation.class).withLabel(MemberJobs.FLEET_JOB_UID, fleetUid).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** Copies one ConfigMap or Secret from the fleet to the member, replacing an older copy; why not, when it cannot. */
    private Optional<String> copy(KubernetesClient member, String namespace, JobDependencies.Dependency dependency) {
        HasMetadata source = JobDependencies.Dependency.CONFIG_MAP.equals(dependency.kind())
                ? fleet.configMaps().inNamespace(namespace).withName(dependency.name()).get()
                : fleet.secrets().inNamespace(namespace).withName(dependency.name()).get();
        if (source == null) {
            return Optional.of(dependency.kind() + " " + namespace + "/" + dependency.name()
                    + " that the job references does not exist on the fleet (propagateDeps is true)");
        }
        ObjectMeta metadata = new ObjectMetaBuilder()
                .withName(source.getMetadata().getName()).withNamespace(namespace).withLabels(source.getMetadata().getLabels())
                .addToLabels(MemberJobs.MANAGED_BY, MemberJobs.MANAGED_BY_MUSTER).build();
        source.setMetadata(metadata);
        member.resource(source).createOr(NonDeletingOperation::update);
        return Optional.empty();
    }

    /** The members placement can write to now, each with its kubeconfig: those configured and those in the members directory. */
    public Map<String, Path> members() {
        Map<String, Path> members = new TreeMap<>();
        config.membersDirectory().map(Path::of).map(MemberDirectory::new).ifPresent(directory -> members.putAll(directory.scan()));
        config.members().forEach((cluster, member) -> members.put(cluster, Path.of(member.kubeconfig())));
        return members;
    }

    private KubernetesClient client(String cluster) {
        KubernetesClient existing = clients.get(cluster);
        if (existing != null) {
            return existing;
        }
        Path kubeconfigFile = members().get(cluster);
        if (kubeconfigFile == null) {
            throw new IllegalStateException("no kubeconfig for member " + cluster + " (muster.placement.members." + cluster
                    + ".kubeconfig, or " + cluster + MemberDirectory.SUFFIX + " in muster.placement.members-directory)");
        }
        return clients.computeIfAbsent(cluster, name -> {
            try {
                Config kubeconfig = MemberKubeconfig.read(kubeconfigFile);
                return new KubernetesClientBuilder().withConfig(new ConfigBuilder(kubeconfig).withRequestTimeout(10_000)
                        .withConnectionTimeout(3_000).withRequestRetryBackoffLimit(2).build()).build();
            } catch (IOException e) {
                throw new IllegalStateException("member " + cluster + ": cannot read kubeconfig " + kubeconfigFile + ": " + e.getMessage());
            }
        });
    }

    /** A member left the fleet: its client goes. */
    public void forget(String cluster) {
        Optional.ofNullable(clients.remove(cluster)).ifPresent(KubernetesClient::close);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    @Override
    public void close() {
        clients.values().forEach(KubernetesClient::close);
    }
}
