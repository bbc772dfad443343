package dev.muster.runtime.views;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Kubeconfig;

class ViewAccessTest {

    private static final ViewAccess ACCESS = ViewAccess.of(Map.of(
            "team-a", new SimpleImmutableEntry<>(Kubeconfig.tokenDigest("team-a-token"), Set.of("team-a")),
            "admin", new SimpleImmutableEntry<>(Kubeconfig.tokenDigest("admin-token").toUpperCase(), Set.of("*"))));

    private static Viewer allowed(String authorization) {
        ViewAccess.Verdict verdict = ACCESS.authenticate(authorization);
        assertThat(verdict).isInstanceOf(ViewAccess.Allowed.class);
        return ((ViewAccess.Allowed) verdict).viewer();
    }

    private static String refused(String authorization) {
        ViewAccess.Verdict verdict = ACCESS.authenticate(authorization);
        assertThat(verdict).isInstanceOf(ViewAccess.Refused.class);
        return ((ViewAccess.Refused) verdict).reason();
    }

    @Test
    void aViewersTokenNamesItAndItsNamespaces() {
        Viewer team = allowed("Bearer team-a-token");

        assertThat(team.name()).isEqualTo("team-a");
        assertThat(team.maySee("team-a")).isTrue();
        assertThat(team.maySee("team-b")).isFalse();
        assertThat(team.maySee(null)).as("what is in no namespace").isFalse();
        assertThat(allowed("bearer admin-token").maySee("anything")).as("any case of the scheme; a digest in upper case").isTrue();
        assertThat(allowed("Bearer admin-token").maySee(null)).isTrue();
    }

    @Test
    void noTokenAnotherSchemeOrAnUnknownTokenIsRefusedSayingWhatToSend() {
        assertThat(refused(null)).contains("send \"Authorization: Bearer <token>\"");
        assertThat(refused(" ")).contains("send \"Authorization: Bearer <token>\"");
        assertThat(refused("Basic YWRtaW46YWRtaW4=")).contains("take a bearer token only");
        assertThat(refused("Bearer team-a-token-but-longer")).isEqualTo("the bearer token is not a viewer's of this service (muster.views.viewers)");
        assertThat(refused("Bearer " + Kubeconfig.tokenDigest("team-a-token"))).as("the digest is no token").contains("not a viewer's");
    }

    @Test
    void withNoViewerConfiguredTheViewsAreOpen() {
        assertThat(ViewAccess.open().authenticate(null)).isEqualTo(new ViewAccess.Allowed(Viewer.ANYONE));
        assertThat(ViewAccess.of(Map.of()).isOpen()).isTrue();
    }

    @Test
    void aDigestThatIsNoSha256OrAViewerOfNoNamespaceIsAConfigurationError() {
        assertThatThrownBy(() -> ViewAccess.of(Map.of("plain", new SimpleImmutableEntry<>("the-token-itself", Set.of("a")),
                "nobody", new SimpleImmutableEntry<>(Kubeconfig.tokenDigest("x"), Set.of()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("muster.views.viewers.\"plain\".token-sha256: must be the token's SHA-256 as 64 hex digits")
                .hasMessageContaining("muster.views.viewers.\"nobody\".namespaces: name at least one namespace")
                .hasMessageNotContaining("the-token-itself");
    }
}
