package dev.muster.simulator.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.model.inventory.PodSnapshot;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

class PodSnapshotMemoTest {

    private final PodSnapshotMemo memo = new PodSnapshotMemo();

    private static Pod pod(String uid, String version, String node, String cpu) {
        return new PodBuilder()
                .withNewMetadata().withName("worker-" + uid).withNamespace("default").withUid(uid).withResourceVersion(version).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("main")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().endSpec()
                .build();
    }

    @Test
    void aPodReadAgainAtTheSameVersionIsNotWorkedOutAgain() {
        PodSnapshot first = memo.of(pod("a", "1", "node-1", "2"));
        memo.passOver();

        assertThat(memo.of(pod("a", "1", "node-1", "2"))).isSameAs(first);
    }

    @Test
    void aPodsNewVersionIsWorkedOutFromItsSpec() {
        memo.of(pod("a", "1", null, "2"));
        memo.passOver();

        PodSnapshot bound = memo.of(pod("a", "2", "node-1", "3"));

        assertThat(bound).isEqualTo(PodSnapshot.of(pod("a", "2", "node-1", "3")));
        assertThat(bound.node()).isEqualTo("node-1");
    }

    @Test
    void onlyThePodsTheLastPassReadAreKept() {
        memo.of(pod("a", "1", "node-1", "2"));
        memo.of(pod("b", "1", "node-1", "2"));
        memo.passOver();
        assertThat(memo.size()).isEqualTo(2);

        memo.of(pod("a", "1", "node-1", "2"));
        memo.passOver();

        assertThat(memo.size()).as("pod b was deleted: the second pass did not read it").isEqualTo(1);
    }
}
