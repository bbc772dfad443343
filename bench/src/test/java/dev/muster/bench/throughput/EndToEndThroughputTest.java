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
