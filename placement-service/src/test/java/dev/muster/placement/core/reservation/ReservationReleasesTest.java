package dev.muster.placement.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobRef;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.reservation.ReservationReleases.Held;
import dev.muster.placement.core.reservation.ReservationReleases.Unused;

/** A reservation nothing uses is released at once or after a grace, and asked for again only once a release may be lost. */
class ReservationReleasesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2026-12-07T05:00:00Z");
    private static final JobRef JOB = new JobRef("team-a", "train", "uid-1");
    private static final Held HELD = new Held("gpu-a", "train-g1-0");

    private final ReservationReleases releases = new ReservationReleases(TIMEOUT);

    private static List<MemberCommand> asked(Decisions decisions) {
        return decisions.commands();
    }

    @Test
    void aReservationUnusedNowIsReleasedAtOnceAndAskedForAgainOnlyATimeoutLater() {
        assertThat(asked(releases.releaseIfUnused(HELD, Unused.NOW, () -> JOB, START)))
                .containsExactly(new MemberCommand.Release("gpu-a", JOB, List.of("train-g1-0")));

        assertThat(asked(releases.releaseIfUnused(HELD, Unused.NOW, () -> JOB, START.plusSeconds(29)))).as("the release may still run").isEmpty();
        assertThat(asked(releases.releaseIfUnused(HELD, Unused.NOW, () -> JOB, START.plus(TIMEOUT)))).as("the release was lost").hasSize(1);
    }

    @Test
    void aReservationItsPodMayStillOwnIsReleasedOnlyOnceTheGraceIsOver() {
        assertThat(asked(releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START))).isEmpty();
        assertThat(releases.inGrace()).containsExactly(HELD);
        assertThat(asked(releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START.plusSeconds(29)))).isEmpty();

        assertThat(asked(releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START.plus(TIMEOUT)))).hasSize(1);
        assertThat(releases.inGrace()).as("asked for: no longer waiting out a grace").isEmpty();
    }

    @Test
    void aReservationFoundUsedStartsItsGraceAgainShouldItBeUnusedLater() {
        releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START);
        releases.releaseIfUnused(HELD, Unused.NO, () -> JOB, START.plusSeconds(20));

        assertThat(asked(releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START.plus(TIMEOUT)))).as("a new grace").isEmpty();
        assertThat(asked(releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START.plus(TIMEOUT).plus(TIMEOUT)))).hasSize(1);
    }

    @Test
    void aMemberThatLeftIsAskedNothingMoreAndOtherMembersAreUntouched() {
        Held elsewhere = new Held("gpu-b", "train-g1-0");
        releases.releaseIfUnused(HELD, Unused.AFTER_GRACE, () -> JOB, START);
        releases.releaseIfUnused(elsewhere, Unused.AFTER_GRACE, () -> JOB, START);

        releases.memberLeft("gpu-a");

        assertThat(releases.inGrace()).containsExactly(elsewhere);
    }

    @Test
    void everyReservationIsLookedAtAgainOncePerTimeout() {
        assertThat(releases.sweepDue(START)).isTrue();
        assertThat(releases.sweepDue(START.plusSeconds(29))).isFalse();
        assertThat(releases.sweepDue(START.plus(TIMEOUT))).isTrue();
    }
}
