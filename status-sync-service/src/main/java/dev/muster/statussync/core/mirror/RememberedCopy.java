package dev.muster.statussync.core.mirror;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import dev.muster.model.event.JobRef;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;

/**
 * What status sync keeps of a member copy across its restarts, on its compacted state topic: enough to judge the copy
 * while its member does not answer. A status sync that starts while a member is cut off cannot list that member's
 * copies, and without this would fail none of them over until the member answers again.
 *
 * @param departed whether the job was failed over from it: it is purged, never the job's again
 */
public record RememberedCopy(String cluster, JobRef job, String copyUid, int generation, Optional<FailoverPolicy> failover,
                             Optional<Instant> admittedAt, boolean departed) {

    /** Its key on the state topic: one copy per job and member at a time, as the mirror tracks them. */
    public String key() {
        return key(cluster, job.uid());
    }

    static String key(String cluster, String fleetUid) {
        return cluster + "/" + fleetUid;
    }

    static RememberedCopy of(MemberCopy copy, boolean departed) {
        return new RememberedCopy(copy.cluster(), copy.job(), copy.copyUid(), copy.generation(), copy.failover(), copy.admittedAt(), departed);
    }

    /** The copy as the mirror tracks it until its member shows it: its status unknown. */
    MemberCopy copy() {
        return new MemberCopy(cluster, job, copyUid, generation, failover, admittedAt, null);
    }

    public byte[] encode() {
        return MusterJson.toBytes(new Stored(cluster, job, copyUid, generation, failover.map(policy -> policy.toleration().toSeconds()).orElse(null),
                failover.map(policy -> policy.purgeMode().value()).orElse(null), admittedAt.map(Instant::toString).orElse(null), departed));
    }

    /** The record read back; what cannot be read as one is an {@link IllegalArgumentException}. */
    public static RememberedCopy decode(byte[] value) {
        Stored stored = MusterJson.fromBytes(value, Stored.class);
        if (stored.cluster() == null || stored.job() == null || stored.job().uid() == null || stored.copyUid() == null) {
            throw new IllegalArgumentException("a remembered copy needs its cluster, job and copy UID");
        }
        Optional<FailoverPolicy> failover = stored.purgeMode() == null ? Optional.empty() : Optional.of(new FailoverPolicy(
                Duration.ofSeconds(stored.tolerationSeconds() == null ? 0 : stored.tolerationSeconds()), PurgeMode.of(stored.purgeMode())
                .orElseThrow(() -> new IllegalArgumentException("unknown purge mode " + stored.purgeMode()))));
        return new RememberedCopy(stored.cluster(), stored.job(), stored.copyUid(), stored.generation(), failover,
                Optional.ofNullable(stored.admittedAt()).map(Instant::parse), stored.departed());
    }

    /** The record's form on the topic. */
    record Stored(String cluster, JobRef job, String copyUid, int generation, Long tolerationSeconds, String purgeMode, String admittedAt,
                          boolean departed) {
    }
}
