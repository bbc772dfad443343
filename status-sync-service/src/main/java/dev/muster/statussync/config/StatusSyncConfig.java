package dev.muster.statussync.config;

import java.util.Map;

import io.smallrye.config.ConfigMapping;

/** Configuration of the status-sync service ({@code muster.status-sync.*}). */
@ConfigMapping(prefix = "muster.status-sync")
public interface StatusSyncConfig {

    /**
     * The member clusters to watch, by cluster name, e.g. {@code muster.status-sync.members.cluster-a.kubeconfig=/etc/muster/cluster-a}.
     * Default: none.
     */
    Map<String, Member> members();

    /** How to reach one member cluster. */
    interface Member {

        /** Path of the kubeconfig file for the member's API server. */
        String kubeconfig();
    }
}
