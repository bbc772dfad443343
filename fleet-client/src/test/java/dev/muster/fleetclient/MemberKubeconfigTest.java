package dev.muster.fleetclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;

class MemberKubeconfigTest {

    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - {name: other, cluster: {server: "http://127.0.0.1:1111"}}
            - {name: gpu-a, cluster: {server: "http://127.0.0.1:40123"}}
            contexts:
            - {name: gpu-a, context: {cluster: gpu-a, user: muster}}
            current-context: gpu-a
            users:
            - {name: muster, user: {}}
            """;

    @Test
    void theServerIsTheOneTheFileNamesWhateverTheFleetsOwnSettingsSay(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("gpu-a.kubeconfig"), KUBECONFIG);
        String previous = System.setProperty("kubernetes.master", "http://fleet.example:6443");
        try {
            assertThat(MemberKubeconfig.read(file).getMasterUrl()).startsWith("http://127.0.0.1:40123");
        } finally {
            if (previous == null) {
                System.clearProperty("kubernetes.master");
            } else {
                System.setProperty("kubernetes.master", previous);
            }
        }
    }

    @Test
    void aFileWithoutAServerForItsContextIsRefused(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("broken.kubeconfig"), KUBECONFIG.replace("current-context: gpu-a", "current-context: nowhere"));

        assertThatThrownBy(() -> MemberKubeconfig.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("no server for the current context \"nowhere\"");
    }

    @Test
    void theTokenComesFromTheMembersFileAndSurvivesTheServicesOwnSettings(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("gpu-a.kubeconfig"), KUBECONFIG.replace("user: {}", "user: {token: member-token}"));

        Config config = new ConfigBuilder(MemberKubeconfig.read(file)).withRequestTimeout(5_000).build();

        assertThat(config.getOauthTokenProvider()).isNotNull();
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("member-token");
    }
}
