package dev.muster.simulator.cluster;

/** The kubeconfig files the simulator writes for the API servers it hosts. */
final class Kubeconfigs {

    private Kubeconfigs() {
    }

    /** A kubeconfig with one cluster, context and (anonymous) user, current, reaching {@code server}. */
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
                  user: {}
                """.formatted(name, server);
    }
}
