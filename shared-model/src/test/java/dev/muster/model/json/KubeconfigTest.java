package dev.muster.model.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigTest {

    private static final String TWO_USERS = """
            apiVersion: v1
            kind: Config
            current-context: fleet
            contexts:
            - name: other
              context: {cluster: fleet, user: certificate-user}
            - name: fleet
              context: {cluster: fleet, user: token-user}
            users:
            - name: certificate-user
              user: {client-certificate-data: AAAA}
            - name: token-user
              user: {token: the-token}
            """;

    @Test
    void theCurrentContextsUsersTokenIsRead(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("config"), TWO_USERS);

        assertThat(Kubeconfig.bearerToken(file, null)).hasValue("the-token");
        assertThat(Kubeconfig.bearerToken(file, "other")).as("a user with a certificate has no token").isEmpty();
        assertThat(Kubeconfig.bearerToken(file, "missing")).isEmpty();
    }

    @Test
    void aFileThatIsMissingOrNoKubeconfigHasNoToken(@TempDir Path folder) throws Exception {
        assertThat(Kubeconfig.bearerToken(folder.resolve("absent"), null)).isEmpty();
        assertThat(Kubeconfig.bearerToken(Files.writeString(folder.resolve("garbage"), "[: nope"), null)).isEmpty();
        assertThat(Kubeconfig.bearerToken(Files.writeString(folder.resolve("empty"), ""), null)).isEmpty();
    }

    @Test
    void aTokensDigestIsItsSha256InHex() {
        // printf %s the-token | sha256sum
        assertThat(Kubeconfig.tokenDigest("the-token")).isEqualTo("c2a73fcf61dfbdcadc79a10ba330b2ef5eb66fc0a6735ed69b796bb3c97b97ae");
    }
}
