package dev.muster.placement.core.reservation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.muster.model.event.JobRef;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;

/**
 * When placement asks a member to delete a reservation nothing uses, and when it asks again. A release can be lost (the
 * member unreachable, placement restarted before it ran), so one still shown a reservation timeout after it was asked
 * for is asked for again. One that its pod may still come to own (the scheduler writes the pod's binding and the
 * reservation's owner one after the other), or whose job placement no longer tracks, is released only once a grace of
 * one timeout is over. And every reservation the members show is looked at once per timeout, for ones no event brings
 * up again.
 */
public final class ReservationReleases {

    /** How soon a reservation nothing uses is released: not (it is used, or not Muster's to release), after a grace, or now. */
    public enum Unused { NO, AFTER_GRACE, NOW }

    /** A reservation on a member. */
    public record Held(String cluster, String name) {
    }

    private final Duration timeout;
    /** Reservations asked to be released and not yet gone, and when last asked. */
    private final Map<Held, Instant> asked = new HashMap<>();
    /** Reservations nothing uses, waiting out their grace, and since when. */
    private final Map<Held, Instant> unusedSince = new LinkedHashMap<>();
    private Instant lastSweep;

    /** @param timeout the reservation timeout: how long a grace lasts, and how long a release is awaited before it is asked again */
    public ReservationReleases(Duration timeout) {
        this.timeout = timeout;
    }

    /** Asks for the reservations to be deleted, and notes when, so that they are asked for again if still shown a timeout later. */
    public Decisions release(String cluster, JobRef job, List<String> reservations, Instant now) {
        for (String name : reservations) {
            Held held = new Held(cluster, name);
            unusedSince.remove(held);
            asked.put(held, now);
        }
        return new Decisions(List.of(), List.of(new MemberCommand.Release(cluster, job, reservations)));
    }

    /**
     * Releases a reservation as soon as {@code unused} says, unless a release asked for it less than a timeout ago; one
     * that is used after all is forgotten.
     *
     * @param owner the job the reservation is released for, worked out only if it is
     */
    public Decisions releaseIfUnused(Held held, Unused unused, Supplier<JobRef> owner, Instant now) {
        if (unused == Unused.NO) {
            forget(held);
            return Decisions.none();
        }
        Instant askedAt = asked.get(held);
        if (askedAt != null) {
            if (now.isBefore(askedAt.plus(timeout))) {
                return Decisions.none();
            }
        } else if (unused == Unused.AFTER_GRACE) {
            Instant since = unusedSince.computeIfAbsent(held, ignored -> now);
            if (now.isBefore(since.plus(timeout))) {
                return Decisions.none();
            }
        }
        return release(held.cluster(), owner.get(), List.of(held.name()), now);
    }

    /** The reservation is gone from its member, or used: nothing more is asked of it. */
    public void forget(Held held) {
        asked.remove(held);
        unusedSince.remove(held);
    }

    /** The reservation is no longer shown: it waits out no grace. */
    public void notShown(Held held) {
        unusedSince.remove(held);
    }

    /** The member left the fleet: nothing more is asked of its reservations. */
    public void memberLeft(String cluster) {
        asked.keySet().removeIf(held -> held.cluster().equals(cluster));
        unusedSince.keySet().removeIf(held -> held.cluster().equals(cluster));
    }

    /** Whether every reservation the members show is due to be looked at again (once per timeout); true notes that it is. */
    public boolean sweepDue(Instant now) {
        if (lastSweep != null && now.isBefore(lastSweep.plus(timeout))) {
            return false;
        }
        lastSweep = now;
        return true;
    }

    /** The reservations waiting out their grace, to be looked at again. */
    public List<Held> inGrace() {
        return new ArrayList<>(unusedSince.keySet());
    }
}
