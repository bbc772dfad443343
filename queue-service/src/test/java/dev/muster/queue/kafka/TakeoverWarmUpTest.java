package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.queue.core.quota.QuotaSettings;

class TakeoverWarmUpTest {

    @Test
    void bothMadeUpGangsAreTrackedByTheRestoredQueue() {
        // Were the made-up inputs refused, the standby would warm up only part of what a takeover runs.
        assertThat(TakeoverWarmUp.run(QuotaSettings.defaults())).isEqualTo(2);
    }
}
