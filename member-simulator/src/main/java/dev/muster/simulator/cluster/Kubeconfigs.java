package dev.muster.simulator.cluster;

/** The kubeconfig files the simulator writes for the API servers it hosts. */
public final class Kubeconfigs {

    /** How every token the simulator writes begins. */
    public static final String TOKEN_PREFIX = "muster-simulated-token-";

    private Kubeconfigs() {
    }

    /**
     * A kubeconfig with one cluster, context and user, current, reaching {@code server}. The user has a bearer token of
     * its own, fresh each time, which the simulated API servers do not check: it is there so that tests can show no
     * service ever logs a credential (they look for these tokens in every log of a run).
     */
    static String text(String name, String server) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: muster
                current-context: %1$s
                users:
                - name: muster
                  user:
                    token: %3$s
                """.formatted(name, server, TOKEN_PREFIX + java.util.UUID.randomUUID());
    }
}
