package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import dev.muster.model.member.MemberKubeconfig;
import dev.muster.statussync.config.StatusSyncConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** One API client per configured member cluster, built from its kubeconfig, shared by the watches and the purges. */
@ApplicationScoped
public class MemberClients {

    private final StatusSyncConfig config;
    private final Map<String, KubernetesClient> clients = new ConcurrentHashMap<>();

    MemberClients(StatusSyncConfig config) {
        this.config = config;
    }

    /** The client of a configured member; empty for a cluster status sync has no kubeconfig for. */
    public Optional<KubernetesClient> client(String cluster) {
        StatusSyncConfig.Member member = config.members().get(cluster);
        return member == null ? Optional.empty() : Optional.of(clients.computeIfAbsent(cluster, name -> build(name, member)));
    }

    private static KubernetesClient build(String cluster, StatusSyncConfig.Member member) {
        try {
            Config kubeconfig = MemberKubeconfig.read(Path.of(member.kubeconfig()));
            // A member that does not answer must not hold a probe or a purge up: fail fast, the next try comes soon.
            Config config = new ConfigBuilder(kubeconfig).withRequestTimeout(5_000).withConnectionTimeout(3_000)
                    .withRequestRetryBackoffLimit(0).build();
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException("member " + cluster + ": cannot read kubeconfig " + member.kubeconfig(), e);
        }
    }

    @PreDestroy
    void close() {
        clients.values().forEach(KubernetesClient::close);
        clients.clear();
    }
}
