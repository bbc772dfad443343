package dev.muster.fleetclient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;

/**
 * The client configuration of one member cluster, from its kubeconfig file and nothing else. fabric8 lets
 * system properties and the environment ({@code kubernetes.master}, {@code KUBERNETES_MASTER}) override a
 * kubeconfig's server; those describe the fleet's own API server, never a member, so the server here is
 * always the one the file names.
 */
public final class MemberKubeconfig {

    private MemberKubeconfig() {
    }

    /**
     * The configuration for the file's current context. Its token is read again from the file at most once a
     * minute (see {@link ThrottledTokenRefresh}).
     *
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when it names no server for its current context
     */
    public static Config read(Path kubeconfig) throws IOException {
        return ThrottledTokenRefresh.install(parse(kubeconfig), () -> {
            try {
                return parse(kubeconfig);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static Config parse(Path kubeconfig) throws IOException {
        String text = Files.readString(kubeconfig);
        io.fabric8.kubernetes.api.model.Config parsed = MusterJson.yaml().readValue(text, io.fabric8.kubernetes.api.model.Config.class);
        String context = parsed.getCurrentContext();
        String clusterName = parsed.getContexts() == null ? null : parsed.getContexts().stream()
                .filter(named -> Objects.equals(named.getName(), context)).map(NamedContext::getContext)
                .filter(Objects::nonNull).map(io.fabric8.kubernetes.api.model.Context::getCluster).findFirst().orElse(null);
        String server = parsed.getClusters() == null ? null : parsed.getClusters().stream()
                .filter(named -> Objects.equals(named.getName(), clusterName)).map(NamedCluster::getCluster)
                .filter(Objects::nonNull).map(io.fabric8.kubernetes.api.model.Cluster::getServer).findFirst().orElse(null);
        if (server == null) {
            throw new IllegalArgumentException(kubeconfig + ": no server for the current context \"" + context + "\"");
        }
        ConfigBuilder config = new ConfigBuilder(Config.fromKubeconfig(context, text, kubeconfig.toString())).withMasterUrl(server);
        // Who calls, as a member's API server logs it and its audit shows: the same user agent as the fleet client's
        // (kubernetes.user.agent, or KUBERNETES_USER_AGENT), which a kubeconfig cannot set.
        String userAgent = io.fabric8.kubernetes.client.utils.Utils.getSystemPropertyOrEnvVar(Config.KUBERNETES_USER_AGENT);
        if (userAgent != null && !userAgent.isBlank()) {
            config.withUserAgent(userAgent);
        }
        return config.build();
    }
}
