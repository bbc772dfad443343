package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import dev.muster.fleetclient.MemberKubeconfig;
import dev.muster.model.member.MemberDirectory;
import dev.muster.statussync.config.StatusSyncConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The member clusters status sync can reach: those configured by name and those whose kubeconfig is in the
 * members directory (read again by {@link #refresh()}), with one API client each, shared by the watches and
 * the purges.
 */
@ApplicationScoped
public class MemberClients {

    private final StatusSyncConfig config;
    private final Optional<MemberDirectory> directory;
    private final Map<String, KubernetesClient> clients = new ConcurrentHashMap<>();
    /** The kubeconfig each client was built from. */
    private final Map<String, String> fingerprints = new ConcurrentHashMap<>();
    private volatile Map<String, Path> members;

    MemberClients(StatusSyncConfig config) {
        this.config = config;
        this.directory = config.membersDirectory().map(Path::of).map(MemberDirectory::new);
        this.members = atStart();
    }

    /**
     * The members as the directory holds them at the start, not only once the watches first read it: a purge decided as
     * this instance becomes the active one (a failover read back) reaches its member at once.
     */
    private Map<String, Path> atStart() {
        Map<String, Path> now = new TreeMap<>();
        try {
            directory.ifPresent(files -> now.putAll(files.scan()));
        } catch (java.io.UncheckedIOException e) {
            // Read again, and said, when the watches read it.
        }
        now.putAll(configured());
        return now;
    }

    /**
     * The members now, each with its kubeconfig file (the directory read again), and those whose kubeconfig
     * changed since it was last read (another endpoint, rotated credentials): their clients are built afresh.
     */
    public Members refresh() {
        Map<String, Path> now = new TreeMap<>();
        directory.ifPresent(files -> now.putAll(files.scan()));
        now.putAll(configured());
        members = now;
        Set<String> changed = new TreeSet<>();
        clients.keySet().removeIf(cluster -> {
            String fingerprint = now.containsKey(cluster) ? fingerprint(now.get(cluster)) : null;
            if (fingerprint != null && fingerprint.equals(fingerprints.get(cluster))) {
                return false;
            }
            if (fingerprint != null) {
                changed.add(cluster);
            }
            clients.get(cluster).close();
            fingerprints.remove(cluster);
            return true;
        });
        return new Members(now, changed);
    }

    /** The members with their kubeconfig files, and those whose kubeconfig changed since the last refresh. */
    public record Members(Map<String, Path> kubeconfigs, Set<String> changed) {
    }

    /** Whether status sync can reach this cluster (it has a kubeconfig for it). */
    public boolean isMember(String cluster) {
        return members.containsKey(cluster);
    }

    /** The client of a member; empty for a cluster status sync has no kubeconfig for. */
    public Optional<KubernetesClient> client(String cluster) {
        Path kubeconfig = members.get(cluster);
        return kubeconfig == null ? Optional.empty() : Optional.of(clients.computeIfAbsent(cluster, name -> {
            fingerprints.put(name, fingerprint(kubeconfig));
            return build(name, kubeconfig);
        }));
    }

    /** The labels configured for a member; none for one that is only in the directory. */
    public Map<String, String> labels(String cluster) {
        StatusSyncConfig.Member member = config.members().get(cluster);
        return member == null ? Map.of() : member.labels();
    }

    private Map<String, Path> configured() {
        Map<String, Path> configured = new TreeMap<>();
        config.members().forEach((cluster, member) -> configured.put(cluster, Path.of(member.kubeconfig())));
        return configured;
    }

    /** The kubeconfig's content, to tell a changed file; null when it cannot be read (it is going away). */
    private static String fingerprint(Path kubeconfig) {
        try {
            return Files.readString(kubeconfig);
        } catch (IOException e) {
            return null;
        }
    }

    private static KubernetesClient build(String cluster, Path kubeconfigFile) {
        try {
            Config kubeconfig = MemberKubeconfig.read(kubeconfigFile);
            // A member that does not answer must not hold a probe or a purge up: fail fast, the next try comes soon.
            Config config = new ConfigBuilder(kubeconfig).withRequestTimeout(5_000).withConnectionTimeout(3_000)
                    .withRequestRetryBackoffLimit(0).build();
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException("member " + cluster + ": cannot read kubeconfig " + kubeconfigFile, e);
        }
    }

    @PreDestroy
    void close() {
        clients.values().forEach(KubernetesClient::close);
        clients.clear();
    }
}
