package dev.muster.placement.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.placement.core.binding.PlacementSettings;

class TakeoverWarmUpTest {

    @Test
    void theMadeUpGangIsPlacedAndItsReservationsAreOwedAfterTheRestore() {
        // Were the made-up job refused or left waiting, the standby would warm up only part of what a takeover runs.
        assertThat(TakeoverWarmUp.run(PlacementSettings.defaults())).isEqualTo(1);
    }
}
