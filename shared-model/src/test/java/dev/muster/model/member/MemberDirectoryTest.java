package dev.muster.model.member;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemberDirectoryTest {

    @TempDir
    Path directory;

    @Test
    void eachClusterKubeconfigFileIsAMemberAndOthersAreNot() throws Exception {
        Files.writeString(directory.resolve("gpu-a.kubeconfig"), "");
        Files.writeString(directory.resolve("gpu-b.kubeconfig"), "");
        Files.writeString(directory.resolve("README.md"), "");
        Files.writeString(directory.resolve("Not_A_Name.kubeconfig"), "");
        Files.createDirectory(directory.resolve("gpu-c.kubeconfig"));

        assertThat(new MemberDirectory(directory).scan()).containsOnlyKeys("gpu-a", "gpu-b")
                .containsEntry("gpu-a", directory.resolve("gpu-a.kubeconfig"));
    }

    @Test
    void aMemberLeavesWhenItsFileGoes() throws Exception {
        MemberDirectory members = new MemberDirectory(directory);
        Files.writeString(directory.resolve("gpu-a.kubeconfig"), "");
        assertThat(members.scan()).containsOnlyKeys("gpu-a");

        Files.delete(directory.resolve("gpu-a.kubeconfig"));

        assertThat(members.scan()).isEmpty();
    }

    @Test
    void aDirectoryNotThereYetHoldsNoMembers() {
        assertThat(new MemberDirectory(directory.resolve("later")).scan()).isEmpty();
    }
}
