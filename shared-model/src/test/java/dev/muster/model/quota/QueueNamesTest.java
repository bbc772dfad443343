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
}
