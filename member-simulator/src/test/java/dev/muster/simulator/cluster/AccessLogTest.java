package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.simulator.cluster.AccessLog.Access;

/** A request reads as RBAC reads it: the verb from the method, the name and the watch parameter, the resource from the path. */
class AccessLogTest {

    private static final String AGENT = "muster-placement-service/0.1.0 (fabric8)";

    private static Access access(String method, String path) {
        return AccessLog.access("member", AGENT, method, path).orElseThrow();
    }

    @Test
    void aCollectionIsListedOrWatchedAndAnObjectIsGot() {
        assertThat(access("GET", "/api/v1/namespaces/team-a/pods?labelSelector=a%3Db"))
                .isEqualTo(new Access("muster-placement-service", "member", "", "pods", "", "list"));
        assertThat(access("GET", "/api/v1/pods?watch=true&resourceVersion=12").verb()).isEqualTo("watch");
        assertThat(access("GET", "/api/v1/namespaces/team-a/pods/p-0").verb()).isEqualTo("get");
    }

    @Test
    void aGroupsResourceAndItsSubresourceAreNamedAsARoleNamesThem() {
        Access status = access("PUT", "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs/train/status");
        assertThat(status.group()).isEqualTo("kubeflow.org");
        assertThat(status.roleResource()).isEqualTo("pytorchjobs/status");
        assertThat(status.verb()).isEqualTo("update");
    }

    @Test
    void writesAreCreateUpdatePatchDeleteAndDeleteCollection() {
        assertThat(access("POST", "/api/v1/namespaces/team-a/events").verb()).isEqualTo("create");
        assertThat(access("PATCH", "/api/v1/namespaces/team-a/configmaps/settings").verb()).isEqualTo("patch");
        assertThat(access("DELETE", "/api/v1/namespaces/team-a/pods/p-0").verb()).isEqualTo("delete");
        assertThat(access("DELETE", "/api/v1/namespaces/team-a/pods").verb()).isEqualTo("deletecollection");
    }

    @Test
    void aNamespaceItselfIsTheResourceNamespaces() {
        assertThat(access("GET", "/api/v1/namespaces/team-a")).isEqualTo(new Access("muster-placement-service", "member", "", "namespaces", "", "get"));
        assertThat(access("POST", "/api/v1/namespaces").verb()).isEqualTo("create");
    }

    @Test
    void discoveryIsNoResourceAndACallerWithoutAUserAgentIsUnknown() {
        assertThat(AccessLog.access("fleet", AGENT, "GET", "/apis")).isEmpty();
        assertThat(AccessLog.access("fleet", AGENT, "GET", "/version")).isEmpty();
        assertThat(AccessLog.access("fleet", AGENT, "GET", "/apis/kubeflow.org/v1")).isEmpty();
        assertThat(AccessLog.access("fleet", null, "GET", "/api/v1/pods")).get().extracting(Access::client).isEqualTo("unknown");
    }
}
