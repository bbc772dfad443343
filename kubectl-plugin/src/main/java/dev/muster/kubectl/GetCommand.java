package dev.muster.kubectl;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.member.MemberPodRow;
import dev.muster.model.time.HumanDuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kubectl muster get}: every member's PyTorchJobs or training pods, or one member's copy of a job. */
@Command(name = "get", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show every member's PyTorchJobs (NAME CLUSTER STATE AGE ADOPTION) or training pods (NAME CLUSTER READY STATUS"
                + " RESTARTS AGE), or one member's copy of a job.",
        footer = {"", "Examples:", "  kubectl muster get pytorchjob -M -A", "  kubectl muster get pod -M -n team-a -o wide",
                "  kubectl muster get pytorchjob my-job -m gpu-a -o yaml"})
final class GetCommand implements Callable<Integer> {

    private static final String JOB = "pytorchjob.kubeflow.org";

    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "pytorchjob (pytorchjobs, pytorchjob.kubeflow.org) or pod (pods, po)",
            completionCandidates = Resources.class)
    String resource;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "One job, read from the member -m names.")
    String name;

    @Option(names = {"-M", "--all-members"}, description = "Across every member cluster.")
    boolean allMembers;

    @Option(names = {"-m", "--member"}, paramLabel = "CLUSTER", description = "The member cluster a job named is read from.")
    String member;

    @Mixin
    Scope scope;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "wide, json, yaml or name.", completionCandidates = Formats.class)
    String output;

    @Mixin
    Connection connection;

    GetCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    /** The output formats {@code get} prints, for completion. */
    static final class Formats extends Candidates {
        Formats() {
            super("wide", "json", "yaml", "name");
        }
    }

    /** The resource names {@code get} knows, for completion. */
    static final class Resources extends Candidates {
        Resources() {
            super("pytorchjob", "pod");
        }
    }

    @Override
    public Integer call() throws CommandFailedException {
        boolean jobs = switch (resource) {
            case "pytorchjob", "pytorchjobs", JOB -> true;
            case "pod", "pods", "po" -> false;
            default -> throw new ParameterException(spec.commandLine(), "the server doesn't have a resource type \"" + resource
                    + "\" in Muster's views; use pytorchjob or pod");
        };
        Output format = Output.of(output, spec, Output.TABLE, Output.WIDE, Output.JSON, Output.YAML, Output.NAME);
        if (name != null && (member == null || !jobs)) {
            throw new ParameterException(spec.commandLine(), "a job by name is read from one member: get pytorchjob NAME -m CLUSTER");
        }
        if (name == null && !allMembers) {
            throw new ParameterException(spec.commandLine(), "Muster's views span the members: add -M (or name one job and -m CLUSTER)");
        }
        scope.check(spec);
        ViewsClient views = connection.statusSync(terminal);
        if (name != null) {
            PyTorchJob job = views.job(member, scope.namespace(), name);
            if (format.isData()) {
                terminal.out().print(format.data(job));
            } else {
                print(format, List.of(MemberJobRow.of(member, job)), jobColumns(), false);
            }
        } else if (jobs) {
            print(format, views.jobs(scope.namespaceOrAll()), jobColumns(), scope.allNamespaces);
        } else {
            print(format, views.pods(scope.namespaceOrAll()), podColumns(), scope.allNamespaces);
        }
        return KubectlMuster.OK;
    }

    private <T> void print(Output format, List<T> rows, Output.Columns<T> columns, boolean allNamespaces) {
        if (!format.rows(terminal, rows, columns, allNamespaces)) {
            terminal.err().println(allNamespaces ? "No resources found on any member."
                    : "No resources found in " + scope.namespace() + " namespace on any member.");
        }
    }

    private Output.Columns<MemberJobRow> jobColumns() {
        return new Output.Columns<>(List.of("NAME", "CLUSTER", "STATE", "AGE", "ADOPTION"),
                row -> List.of(row.name(), row.cluster(), row.state(), age(row.created()), row.adoption()), List.of("FLEET-UID"),
                row -> List.of(row.fleetUid() == null ? "<none>" : row.fleetUid()), MemberJobRow::namespace, row -> JOB + "/" + row.name());
    }

    private Output.Columns<MemberPodRow> podColumns() {
        return new Output.Columns<>(List.of("NAME", "CLUSTER", "READY", "STATUS", "RESTARTS", "AGE"),
                row -> List.of(row.name(), row.cluster(), row.ready(), row.status(), Integer.toString(row.restarts()), age(row.created())),
                List.of("NODE"), row -> List.of(row.node() == null ? "<none>" : row.node()), MemberPodRow::namespace, row -> "pod/" + row.name());
    }

    private String age(String created) {
        if (created == null || created.isEmpty()) {
            return "<unknown>";
        }
        try {
            return HumanDuration.of(Duration.between(Instant.parse(created), terminal.clock().instant()));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }
}
