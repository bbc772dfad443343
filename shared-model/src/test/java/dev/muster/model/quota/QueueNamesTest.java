package dev.muster.model.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class QueueNamesTest {

    @Test
    void namesFollowTheSeedsShapeAndAreStable() {
        String root = QueueNames.of(List.of("root"));
        String child = QueueNames.of(List.of("root", "child-2"));

        assertThat(root).matches("root-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(child).matches("root-child-2-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(QueueNames.of(List.of("root", "child-2"))).isEqualTo(child);
    }

    @Test
    void pathsThatJoinAlikeStillGetDifferentNames() {
        // "root" > "a-b" and "root" > "a" > "b" both join to root-a-b; the suffix tells them apart.
        assertThat(QueueNames.of(List.of("root", "a-b"))).isNotEqualTo(QueueNames.of(List.of("root", "a", "b")));
    }

    @Test
    void aTreeNamesEveryNodesQueueByItsPathFromTheRoot() {
        QuotaNode leaf = new QuotaNode("child-2", null, null, null, List.of("default"));
        QuotaNode root = new QuotaNode("root", null, null, List.of(leaf), null);

        assertThat(QueueNames.ofTree(root)).containsExactly(
                java.util.Map.entry("root", QueueNames.of(List.of("root"))),
                java.util.Map.entry("child-2", QueueNames.of(List.of("root", "child-2"))));
    }
}
