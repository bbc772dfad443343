package dev.muster.kubectl;

import java.util.concurrent.Callable;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kubectl muster completion bash}: a completion script for the plugin's commands, flags and resources. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = "Print a bash (or zsh, with bashcompinit) completion script for kubectl-muster.",
        footer = {"", "Example:", "  source <(kubectl muster completion bash)"})
final class CompletionCommand implements Callable<Integer> {

    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh", completionCandidates = Shells.class)
    String shell;

    CompletionCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    static final class Shells extends Candidates {
        Shells() {
            super("bash", "zsh");
        }
    }

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "completion is written for bash and zsh, not " + shell);
        }
        terminal.out().print(AutoComplete.bash("kubectl-muster", spec.root().commandLine()));
        return KubectlMuster.OK;
    }
}
