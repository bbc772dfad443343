package dev.muster.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.resource.ResourceList;

/** The end-to-end run's members hold every job it submits: capacity never decides which are bound. */
class EndToEndThroughputTest {

    @Test
    void everyJobOfTheDefaultRunFitsTheMembersAtOnce() throws Exception {
        PyTorchJob seed = Manifests.read(Files.readString(Path.of("../examples/pytorch-job.yaml")), PyTorchJob.class);
        int jobs = 1_500 + 500 + 1_000 + 2_000 + 4_000 + 8_000;
        Map<String, String> room = allocatable(EndToEndThroughput.nodeRoom(seed, jobs));

        ResourceList perNode = ResourceList.parse(room);
        ResourceList perJob = JobDemand.of(seed).total();
        for (String resource : List.of("cpu", "memory")) {
            assertThat(perNode.amount(resource).multiply(java.math.BigDecimal.valueOf(60)))
                    .as(resource).isGreaterThanOrEqualTo(perJob.amount(resource).multiply(java.math.BigDecimal.valueOf(jobs)));
        }
        assertThat(Long.parseLong(room.get("pods")) * 60).isGreaterThanOrEqualTo((long) JobDemand.of(seed).pods() * jobs);
    }

    @Test
    void theMostMusterBoundInAnyStepIsSetAgainstTheRelaysFullSpeed() {
        List<LoadPhase.Figures> steps = List.of(new LoadPhase.Figures(50, 1_000, 1_000, 49.5, 300, 500, 600),
                new LoadPhase.Figures(200, 4_000, 4_000, 140.0, 4_000, 7_000, 7_400), new LoadPhase.Figures(400, 8_000, 8_000, 130.0, 14_000, 20_000, 21_000));
        LoadPhase.Figures ceiling = new LoadPhase.Figures(1e9, 20_000, 20_000, 3_500.0, 900, 1_800, 2_000);

        assertThat(EndToEndThroughput.ceilingLine(steps, ceiling)).isEqualTo("Kafka's three-hop relay at full speed: 3500 msgs/s (20000/20000 through,"
                + " p50 900 ms, p99 2000 ms). Muster's most bound: 140.0 jobs/s (200/s offered), 0.040 of the relay's ceiling.");
        // A run of the relay alone says only the relay's part.
        assertThat(EndToEndThroughput.ceilingLine(List.of(LoadPhase.Figures.NONE), ceiling)).endsWith("p99 2000 ms).");
    }

    /** The flow map nodeRoom writes into the fleet spec, read back. */
    private static Map<String, String> allocatable(String flow) {
        Map<String, String> values = new java.util.HashMap<>();
        for (String entry : flow.replaceAll("[{}\"]", "").split(",")) {
            String[] pair = entry.split(":");
            values.put(pair[0].trim(), pair[1].trim());
        }
        return values;
    }
}
