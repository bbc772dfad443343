package dev.muster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

class SimulatorCommandTest {

    @Test
    void aCompletedJobsPodsAreNamedInNameOrderWhateverOrderTheMemberAnswersIn() throws Exception {
        String answer = "{\"job\": \"default/pytorch-test\", \"completed\": {\"gpu-b\": "
                + "[\"pytorch-test-worker-0\", \"pytorch-test-master-0\", \"pytorch-test-worker-1\"]}}";

        assertThat(SimulatorCommand.completed(new ObjectMapper().readTree(answer)))
                .isEqualTo("default/pytorch-test: 3 pods exit 0 on gpu-b (pytorch-test-master-0, pytorch-test-worker-0, pytorch-test-worker-1)");
    }

    @Test
    void eachCommandLineAsksTheAdminApiPathItNames() {
        assertThat(SimulatorCommand.adminPath("fault", "gpu-a", "unreachable")).isEqualTo("/clusters/gpu-a/unreachable");
        assertThat(SimulatorCommand.adminPath("fault", "gpu-a", "slow", "2s", "--home", "/tmp/x")).isEqualTo("/clusters/gpu-a/slow?latency=2s");
        assertThat(SimulatorCommand.adminPath("fault", "gpu-b", "list-fail", "pytorchjobs")).isEqualTo("/clusters/gpu-b/lists/pytorchjobs/fail?count=1");
        assertThat(SimulatorCommand.adminPath("complete", "my job", "-n", "team-a")).isEqualTo("/jobs/team-a/my+job/complete");
        assertThat(SimulatorCommand.adminPath("kill", "queue-service")).isEqualTo("/services/queue-service/kill");
    }

    @Test
    void aCommandLineItDoesNotUnderstandSaysWhatIsWrong() {
        assertThatThrownBy(() -> SimulatorCommand.adminPath("fault", "gpu-a", "explode")).isInstanceOf(ParameterException.class)
                .hasMessage("unknown fault explode");
        assertThatThrownBy(() -> SimulatorCommand.adminPath("fault", "gpu-a", "heal", "now")).hasMessage("heal takes nothing more, got [now]");
        assertThatThrownBy(() -> SimulatorCommand.adminPath("complete")).hasMessageContaining("Missing required parameter: 'JOB'");
        assertThatThrownBy(() -> SimulatorCommand.adminPath("reboot")).hasMessageContaining("Unmatched argument at index 0: 'reboot'");
    }

    @Test
    void everyCommandHasItsHelp() {
        CommandLine commandLine = new CommandLine(new SimulatorCommand());
        assertThat(commandLine.getUsageMessage()).contains("fault", "complete", "restart", "kill", "--home=DIR");
        assertThat(commandLine.getSubcommands()).allSatisfy((name, command) -> assertThat(command.getUsageMessage())
                .as(name).startsWith("Usage: ./muster " + name).contains("-h, --help"));
        assertThat(commandLine.getSubcommands().get("fault").getUsageMessage()).contains("node-not-ready NODE", "list-fail RESOURCE [COUNT]");
    }

    @Test
    void upTakesItsOptionsAndSaysWhatIsWrongWithThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home) {
        LocalStackSettings defaults = LocalStackSettings.defaults(home);

        assertThat(MusterUp.parse(new String[] {"--home", home.resolve("h").toString(), "--port-base", "0"}, defaults))
                .satisfies(settings -> {
                    assertThat(settings.home()).isEqualTo(home.resolve("h"));
                    assertThat(settings.portBase()).isZero();
                });
        assertThat(MusterUp.parse(new String[] {"--help"}, defaults)).as("help asked for").isNull();
        assertThatThrownBy(() -> MusterUp.parse(new String[] {"--port-base", "many"}, defaults)).isInstanceOf(ParameterException.class)
                .hasMessageContaining("Invalid value for option '--port-base': 'many' is not an int");
        assertThatThrownBy(() -> MusterUp.parse(new String[] {"--port-base", "70000"}, defaults)).hasMessage("--port-base must be between 0 and 65531, got 70000");
        assertThatThrownBy(() -> MusterUp.parse(new String[] {"--fleet", home.resolve("none.yaml").toString()}, defaults))
                .hasMessageEndingWith("none.yaml: no such file");
        assertThat(new CommandLine(new MusterUp.Options()).getUsageMessage()).contains("Usage: ./muster up", "--fleet=FILE", "--port-base=N",
                "64   a command line it does not understand");
    }
}
