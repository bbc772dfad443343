package dev.muster.kubectl;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code kubectl muster}: the fleet's multi-cluster views, as the vendor's {@code kubectl amc} gives them, with kubectl's
 * conventions ({@code -n}, {@code -A}, {@code -o}, {@code --kubeconfig}, {@code --context}). Exit status: 0 when it
 * printed what was asked, 1 when Muster could not answer it (unreachable, not found, refused), 64 for a command line it
 * does not understand.
 */
@Command(name = "kubectl muster", mixinStandardHelpOptions = true, versionProvider = KubectlMuster.Version.class,
        description = "Muster's multi-cluster views of the fleet.",
        footer = {"", "Muster's services are found by flag (--status-url, --queue-url, --placement-url, --kafka), else by $MUSTER_STATUS_URL,"
                + " $MUSTER_QUEUE_URL, $MUSTER_PLACEMENT_URL, $MUSTER_KAFKA, else by the local stack's muster-endpoints.properties beside the"
                + " kubeconfig, else at the local stack's ports. They are asked with the bearer token of the kubeconfig context's user"
                + " (--kubeconfig, --context).", "", "Use \"kubectl muster COMMAND --help\" for more about a command."})
public final class KubectlMuster implements Runnable {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 64;

    private final Terminal terminal;

    KubectlMuster(PrintStream out, PrintStream err, Map<String, String> environment, Clock clock) {
        this.terminal = new Terminal(out, err, environment, clock);
    }

    public static void main(String[] args) {
        System.exit(new KubectlMuster(System.out, System.err, System.getenv(), Clock.systemUTC()).run(args));
    }

    /** No command: the help, as kubectl prints it. */
    @Override
    public void run() {
        commandLine().usage(terminal.out());
    }

    int run(String[] args) {
        return commandLine().execute(args);
    }

    private CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(this)
                .addSubcommand(new GetCommand(terminal))
                .addSubcommand(new ExplainCommand(terminal))
                .addSubcommand(new QueuesCommand(terminal))
                .addSubcommand(new SubmitCommand(terminal))
                .addSubcommand(new CompletionCommand(terminal))
                .addSubcommand(new KubectlCompletion(terminal));
        commandLine.setOut(new PrintWriter(terminal.out(), true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(terminal.err(), true, StandardCharsets.UTF_8));
        commandLine.setParameterExceptionHandler(this::usageError);
        commandLine.setExecutionExceptionHandler((failure, command, parsed) -> {
            if (failure instanceof CommandFailedException) {
                terminal.err().println("error: " + failure.getMessage());
                return FAILED;
            }
            throw failure;
        });
        return commandLine;
    }

    /** A command line it does not understand: what is wrong, where to read more, exit 64. */
    private int usageError(ParameterException problem, String[] args) {
        CommandLine command = problem.getCommandLine();
        String message = problem.getMessage();
        if (problem instanceof UnmatchedArgumentException unmatched && command.getParent() == null && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            message = "unknown command \"" + unmatched.getUnmatched().get(0) + "\" for \"kubectl muster\"; it knows: "
                    + String.join(", ", command.getSubcommands().entrySet().stream()
                    .filter(subcommand -> !subcommand.getValue().getCommandSpec().usageMessage().hidden()).map(java.util.Map.Entry::getKey).toList());
        }
        terminal.err().println("error: " + message);
        terminal.err().println("See '" + command.getCommandSpec().qualifiedName() + " --help'.");
        return USAGE;
    }

    /** The version the plugin's jar was built as. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = KubectlMuster.class.getPackage().getImplementationVersion();
            return new String[] {"kubectl-muster " + (version == null ? "(development build)" : version)};
        }
    }
}
