package dev.muster.kubectl;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import dev.muster.model.member.MemberJobRow;
import dev.muster.model.placement.ClusterFitRow;
import dev.muster.model.queue.JobQueueView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kubectl muster explain pytorchjob NAME}: where the job waits and why, where it runs, and where it would fit now. */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Say where a job waits and why, where it runs, and for each cluster whether it would fit now.",
        footer = {"", "Example:", "  kubectl muster explain pytorchjob my-job -n team-a"})
final class ExplainCommand implements Callable<Integer> {

    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "pytorchjob")
    String resource;

    @Parameters(index = "1", paramLabel = "NAME", description = "The job.")
    String name;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "The job's namespace (default: default).")
    String namespace = "default";

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "json or yaml.")
    String output;

    @Mixin
    Connection connection;

    ExplainCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    /** What one explanation gathers, for -o json|yaml. */
    record Explanation(JobQueueView queue, List<ClusterFitRow> clusters, List<MemberJobRow> runsOn) {
    }

    @Override
    public Integer call() throws CommandFailedException {
        if (!List.of("pytorchjob", "pytorchjobs", "pytorchjob.kubeflow.org").contains(resource)) {
            throw new ParameterException(spec.commandLine(), "explain takes one job: explain pytorchjob NAME [-n NAMESPACE]");
        }
        Output format = Output.of(output, spec, Output.TABLE, Output.JSON, Output.YAML);
        Optional<JobQueueView> queued = connection.queue(terminal).queued(namespace, name);
        List<MemberJobRow> runsOn = connection.statusSync(terminal).jobs(namespace).stream().filter(row -> row.name().equals(name)).toList();
        if (queued.isEmpty() && runsOn.isEmpty()) {
            throw new CommandFailedException("Muster knows no PyTorchJob " + namespace + "/" + name + " (not in its queues, on no member)");
        }
        List<ClusterFitRow> clusters = queued.isEmpty() ? List.of() : connection.placement(terminal).fit(queued.get().job(), queued.get().policy());
        if (format.isData()) {
            terminal.out().print(format.data(new Explanation(queued.orElse(null), clusters, runsOn)));
            return KubectlMuster.OK;
        }
        terminal.out().println("Job:      " + namespace + "/" + name);
        if (queued.isPresent()) {
            JobQueueView view = queued.get();
            String where = view.queue() == null ? "" : " in queue " + view.queue() + (view.position() > 0 ? ", position " + view.position() : "");
            terminal.out().println("State:    " + view.state() + where);
            if (view.reason() != null) {
                terminal.out().println("Reason:   " + view.reason() + (view.message() == null ? "" : ": " + view.message()));
            }
            if (view.estimate() != null) {
                terminal.out().println("Starts:   " + startsIn(view) + view.estimate());
            }
            terminal.out().println("Demand:   " + view.demand());
        } else {
            terminal.out().println("State:    not held by the queue service (admitted without queueing, or finished)");
        }
        terminal.out().println("Runs on:  " + (runsOn.isEmpty() ? "no member yet" : String.join(", ", runsOn.stream()
                .map(row -> row.cluster() + " (" + (row.state().isEmpty() ? "-" : row.state()) + ")").toList())));
        if (!clusters.isEmpty()) {
            terminal.out().println();
            terminal.out().println("Clusters, best first, were it placed now:");
            TablePrinter table = new TablePrinter(List.of("CLUSTER", "FITS", "WHY"));
            for (ClusterFitRow row : clusters) {
                table.row(List.of(row.cluster(), row.fits() ? "yes" : "no", row.fits()
                        ? (row.domain() == null ? "" : "all pods in " + row.domain() + ", ") + "partly used GPU nodes after: " + row.partialGpuNodes() + ", GPUs free: " + row.freeGpu().stripTrailingZeros().toPlainString()
                        : row.reason()));
            }
            table.print(terminal.out());
        }
        return KubectlMuster.OK;
    }

    /** When the job would start, as people say it: {@code in about 14 min (12:34 UTC), }; empty without an estimate. */
    private String startsIn(JobQueueView view) {
        if (view.estimatedStart() == null) {
            return "";
        }
        long minutes = Math.max(0, java.time.Duration.between(terminal.clock().instant(), view.estimatedStart()).toMinutes());
        String in = minutes == 0 ? "now" : minutes < 90 ? "in about " + minutes + " min" : "in about " + Math.round(minutes / 60.0) + " h";
        return in + " (" + java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(java.time.ZoneOffset.UTC)
                .format(view.estimatedStart()) + "), ";
    }
}
