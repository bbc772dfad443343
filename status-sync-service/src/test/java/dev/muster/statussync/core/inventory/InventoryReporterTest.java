package dev.muster.statussync.core.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.resource.ResourceList;

class InventoryReporterTest {

    private static NodeSnapshot node(String name, boolean ready) {
        return new NodeSnapshot(name, Map.of(), List.of(), ResourceList.parse(Map.of("cpu", "8", "pods", "110")), ready, false);
    }

    private static PodSnapshot pod(String name, String node) {
        return new PodSnapshot("default", name, node, ResourceList.parse(Map.of("cpu", "1", "pods", "1")), false);
    }

    @Test
    void reportsAChangeOnceAndNothingForAResyncThatChangesNothing() {
        InventoryReporter reporter = new InventoryReporter("c");

        assertThat(reporter.node(node("n1", true))).containsInstanceOf(MemberEventData.NodeReported.class);
        assertThat(reporter.node(node("n1", true))).isEmpty();
        assertThat(reporter.node(node("n1", false))).get().extracting(data -> ((MemberEventData.NodeReported) data).node().ready()).isEqualTo(false);
        assertThat(reporter.pod(pod("p", null))).isPresent();
        assertThat(reporter.pod(pod("p", "n1"))).isPresent();
        assertThat(reporter.pod(pod("p", "n1"))).isEmpty();
    }

    @Test
    void reportsRemovalsOnlyOfWhatWasReported() {
        InventoryReporter reporter = new InventoryReporter("c");
        reporter.pod(pod("a", "n1"));
        reporter.node(node("n1", true));

        assertThat(reporter.podGone("default", "never-seen")).isEmpty();
        assertThat(reporter.podGone("default", "a")).contains(new MemberEventData.PodRemoved("c", "default", "a"));
        assertThat(reporter.podGone("default", "a")).isEmpty();
        assertThat(reporter.nodeGone("n1")).contains(new MemberEventData.NodeRemoved("c", "n1"));
        assertThat(reporter.pod(pod("a", "n1"))).as("reported again after its removal").isPresent();
    }

    @Test
    void whatAnEarlierWatchReportedAndTheMemberNoLongerShowsIsReportedGoneOnce() {
        // An earlier instance reported pods a, b and c and node n1; a was deleted while no instance watched.
        ReportedInventory topic = new ReportedInventory();
        topic.apply(new MemberEventData.NodeReported("c", node("n1", true)));
        topic.apply(new MemberEventData.PodReported("c", pod("a", "n1")));
        topic.apply(new MemberEventData.PodReported("c", pod("b", "n1")));
        topic.apply(new MemberEventData.PodReported("c", pod("c", "n1")));
        topic.apply(new MemberEventData.PodRemoved("c", "default", "c"));
        topic.apply(new MemberEventData.PodReported("other", pod("z", "n9")));
        assertThat(topic.of("c")).containsExactlyInAnyOrder("node/n1", "pod/default/a", "pod/default/b");

        InventoryReporter reporter = new InventoryReporter("c");
        reporter.pod(pod("b", "n1"));
        List<MemberEventData> told = new java.util.ArrayList<>();

        int gone = reporter.goneSince(topic.of("c"), InventoryReporter.POD, java.util.Set.of("pod/default/b"), told::add);

        assertThat(gone).isEqualTo(1);
        assertThat(told).as("only pods, and only what the member no longer shows").containsExactly(new MemberEventData.PodRemoved("c", "default", "a"));
        assertThat(reporter.goneSince(topic.of("c"), InventoryReporter.NODE, java.util.Set.of("node/n1"), told::add)).isZero();
        assertThat(reporter.podGone("default", "b")).as("this watch's own reports are removed as before").isPresent();
    }

    @Test
    void aMemberThatLeftTheFleetHoldsNothingInTheTopicsAccount() {
        ReportedInventory topic = new ReportedInventory();
        topic.apply(new MemberEventData.PodReported("c", pod("a", "n1")));
        topic.apply(new MemberEventData.MemberRemoved("c"));

        assertThat(topic.of("c")).isEmpty();
    }

    @Test
    void reportsTheMemberWhenItsReachabilityOrFactsChange() {
        InventoryReporter reporter = new InventoryReporter("c");
        Instant seen = Instant.parse("2026-11-29T12:00:00Z");

        assertThat(reporter.member(new MemberSnapshot("c", true, true, Map.of(), seen))).isPresent();
        assertThat(reporter.member(new MemberSnapshot("c", true, true, Map.of(), seen.plusSeconds(5)))).as("a heartbeat").isEmpty();
        assertThat(reporter.member(new MemberSnapshot("c", false, true, Map.of(), seen.plusSeconds(5)))).isPresent();
        assertThat(reporter.member(new MemberSnapshot("c", false, true, Map.of(), seen.plusSeconds(5)))).isEmpty();
        assertThat(reporter.member(new MemberSnapshot("c", true, true, Map.of("pool", "a"), seen.plusSeconds(10)))).isPresent();
    }
}
