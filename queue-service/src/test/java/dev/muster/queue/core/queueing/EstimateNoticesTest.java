package dev.muster.queue.core.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A waiting job is told its estimate when it gains or loses one, or when it moved enough, not at every drift. */
class EstimateNoticesTest {

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");

    private final EstimateNotices notices = new EstimateNotices();

    @Test
    void aFirstEstimateIsToldAndNoEstimateIsNotToldAtAll() {
        assertThat(notices.due("job", null, T0)).isFalse();
        assertThat(notices.due("job", T0.plusSeconds(600), T0)).isTrue();
    }

    @Test
    void anEstimateGainedOrLostIsToldAtOnce() {
        notices.told("job", null, T0);
        assertThat(notices.due("job", T0.plusSeconds(600), T0.plusSeconds(1))).isTrue();
        notices.told("job", T0.plusSeconds(600), T0.plusSeconds(1));
        assertThat(notices.due("job", null, T0.plusSeconds(2))).isTrue();
    }

    @Test
    void anEstimateIsToldAgainOnlyWhenItMovedByMoreThanTwoMinutesAndAFifthOfTheWaitLeftAndNotTooSoon() {
        Instant estimate = T0.plus(Duration.ofHours(1));
        notices.told("job", estimate, T0);
        Instant later = T0.plus(EstimateNotices.MIN_INTERVAL);

        assertThat(notices.due("job", estimate.plus(Duration.ofMinutes(30)), T0.plusSeconds(60))).as("too soon").isFalse();
        assertThat(notices.due("job", estimate.plus(Duration.ofMinutes(10)), later)).as("10 min on 55 left").isFalse();
        assertThat(notices.due("job", estimate.minus(Duration.ofMinutes(12)), later)).as("12 min on 55 left").isTrue();
        assertThat(notices.due("job", estimate.plus(Duration.ofMinutes(1)), estimate.minus(Duration.ofMinutes(1))))
                .as("a minute, even close to the start").isFalse();
        assertThat(notices.due("job", estimate.plus(Duration.ofMinutes(3)), estimate.plusSeconds(30))).as("3 min, overdue").isTrue();
    }

    @Test
    void aJobToldInThisVeryEventIsNotToldTwice() {
        notices.told("job", null, T0);
        assertThat(notices.due("job", T0.plusSeconds(600), T0)).isFalse();
    }

    @Test
    void aJobNoLongerWaitingIsForgottenAndToldAfreshShouldItWaitAgain() {
        notices.told("job", T0.plusSeconds(600), T0);
        notices.retain(Set.of());
        assertThat(notices.due("job", T0.plusSeconds(600), T0.plusSeconds(1))).isTrue();
    }
}
