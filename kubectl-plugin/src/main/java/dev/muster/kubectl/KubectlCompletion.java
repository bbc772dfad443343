package dev.muster.kubectl;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * What kubectl (1.26 and later) asks a plugin to complete {@code kubectl muster <TAB>}: it runs
 * {@code kubectl_complete-muster __complete WORDS...}, the last word being the one typed so far, and reads one candidate
 * per line, then {@code :DIRECTIVE} (4: no file names), as cobra's completion protocol says.
 */
@Command(name = "__complete", hidden = true, description = "Candidates for kubectl's completion of kubectl muster.")
final class KubectlCompletion implements Callable<Integer> {

    /** Cobra's ShellCompDirectiveNoFileComp: offer these, not file names. */
    private static final int NO_FILE_COMPLETION = 4;

    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    /** The words typed so far, options included: taken as they are, never parsed. */
    @Unmatched
    List<String> words = new ArrayList<>();

    KubectlCompletion(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        String[] args = words.isEmpty() ? new String[] {""} : words.toArray(String[]::new);
        String typed = args[args.length - 1];
        List<CharSequence> candidates = new ArrayList<>();
        AutoComplete.complete(spec.root(), args, args.length - 1, typed.length(), typed.length(), candidates);
        candidates.stream().map(candidate -> typed + candidate).map(String::strip).filter(candidate -> !candidate.equals("__complete"))
                .distinct().sorted().forEach(terminal.out()::println);
        terminal.out().println(":" + NO_FILE_COMPLETION);
        return KubectlMuster.OK;
    }
}
