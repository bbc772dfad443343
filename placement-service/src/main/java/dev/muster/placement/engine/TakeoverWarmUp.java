package dev.muster.placement.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.WarmUpJob;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.placement.core.gang.PlacementRecord;

/**
 * Takes a scratch core through what a takeover does, on made-up inputs: a member with reservations, a GPU gang placed on
 * it, the state it wrote encoded, decoded and restored into a second core. Nothing leaves this class.
 */
final class TakeoverWarmUp {

    private static final String NAME = "muster-warm-up";

    private TakeoverWarmUp() {
    }

    /** @return the member writes the restored core found owed: the gang's reservations, if the warm-up went the whole way */
    static int run(PlacementSettings settings) {
        Clock clock = Clock.systemUTC();
        Instant now = clock.instant();
        GangPlacer placer = new GangPlacer(settings, clock);
        placer.handle(MemberEvent.create(NAME, now, new MemberEventData.MemberReported(new MemberSnapshot(NAME, true, true, Map.of(), now))));
        placer.handle(MemberEvent.create(NAME, now, new MemberEventData.NodeReported(NAME, new NodeSnapshot(NAME, Map.of(), List.of(),
                ResourceList.parse(Map.of("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8", "pods", "110")), true, false))));
        PyTorchJob job = WarmUpJob.of(NAME, NAME);
        placer.handle(JobEvent.create(NAME, new JobRef(NAME, NAME, NAME), now, new JobAdmitted(job, null, NAME, ResourceList.empty())));
        Map<String, PlacementRecord> written = new LinkedHashMap<>();
        placer.drainState().forEach((uid, record) -> {
            if (record != null) {
                written.put(uid, PlacementRecord.decode(record.encode()));
            }
        });
        return new GangPlacer(settings, clock).restore(written).commands().size();
    }
}
