package dev.muster.queue.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.queue.core.queueing.FleetApiJob;

/**
 * What the check for missed deletions makes of an object of a held job's name on the fleet API. A job deleted and
 * applied again under its name while the queue did not watch leaves the name there as another object: the held job
 * was deleted. (End to end the watch would have to miss the deletion, which the mock API server cannot be made to do
 * on cue; a check racing the test's own submission made such a test flaky.)
 */
class FleetIngressNameCheckTest {

    private static final FleetApiJob APPLIED = new FleetApiJob("team-a", "train", "uid-1", "uid-1");
    private static final FleetApiJob SHOWN = new FleetApiJob("team-a", "produced", "event-uid", "object-1");
    private static final FleetApiJob BEFORE_UIDS_WERE_KEPT = new FleetApiJob("team-a", "old", "uid-9", null);

    @Test
    void theObjectAJobWasAppliedAsOrShownWithIsTheJobs() {
        assertThat(FleetIngress.isItsObject(APPLIED, "uid-1", true)).isTrue();
        assertThat(FleetIngress.isItsObject(SHOWN, "object-1", true)).isTrue();
    }

    @Test
    void anotherObjectOfItsNameIsAJobAppliedSinceAndNoObjectIsNone() {
        assertThat(FleetIngress.isItsObject(APPLIED, "uid-2", true)).isFalse();
        assertThat(FleetIngress.isItsObject(SHOWN, "object-2", true)).isFalse();
        assertThat(FleetIngress.isItsObject(APPLIED, null, false)).isFalse();
    }

    @Test
    void withoutAUidToCompareTheNameAloneDecidesAsBefore() {
        assertThat(FleetIngress.isItsObject(BEFORE_UIDS_WERE_KEPT, "uid-7", true)).isTrue();
        assertThat(FleetIngress.isItsObject(APPLIED, null, true)).isTrue();
    }
}
