package dev.muster.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

class SimulatorCommandTest {

    @Test
    void aCompletedJobsPodsAreNamedInNameOrderWhateverOrderTheMemberAnswersIn() throws Exception {
        String answer = "{\"job\": \"default/pytorch-test\", \"completed\": {\"gpu-b\": "
                + "[\"pytorch-test-worker-0\", \"pytorch-test-master-0\", \"pytorch-test-worker-1\"]}}";

        assertThat(SimulatorCommand.completed(new ObjectMapper().readTree(answer)))
                .isEqualTo("default/pytorch-test: 3 pods exit 0 on gpu-b (pytorch-test-master-0, pytorch-test-worker-0, pytorch-test-worker-1)");
    }
}
