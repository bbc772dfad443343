package dev.muster.kubectl;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

import dev.muster.model.quota.ConfigInForce;
import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.model.time.HumanDuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kubectl muster queues}: each quota node's use of each resource against its min and max, and what waits under it. */
@Command(name = "queues", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show each quota node's use of each resource against its min and max, what waits under it and when the first of it is"
                + " expected to start (ETA), and how it shares what"
                + " it borrows with its siblings (weight, dominant share, fair share); then the tree in force and any refused change of a tree"
                + " or policy, with why.")
final class QueuesCommand implements Callable<Integer> {

    private final Terminal terminal;

    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "json or yaml (the rows).")
    String output;

    @Mixin
    Connection connection;

    QueuesCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws CommandFailedException {
        Output format = Output.of(output, spec, Output.TABLE, Output.JSON, Output.YAML);
        ViewsClient queue = connection.queue(terminal);
        List<QuotaUsageRow> rows = queue.quotaUsage();
        ConfigInForce config = queue.configInForce();
        if (!format.isData() && config.treeInForce() == null) {
            terminal.err().println(config.refused().isEmpty() ? "No quota tree: apply an ElasticQuotaTree first."
                    : "No quota tree in force: every change applied so far was refused.");
        } else {
            format.rows(terminal, rows, new Output.Columns<>(List.of("NODE", "QUEUE", "WAITING", "ETA", "RESOURCE", "USED", "MIN", "MAX", "WEIGHT",
                    "SHARE", "FAIR"),
                    row -> List.of(row.node(), row.queue(), Integer.toString(row.waiting()), eta(row.nextStart()), row.resource(), row.used(),
                            orDash(row.min()),
                            orDash(row.max()), orDash(row.weight()), orDash(row.share()), orDash(row.fairShare())),
                    List.of(), row -> List.of(), row -> "", QuotaUsageRow::node), false);
        }
        if (format.isData()) {
            return KubectlMuster.OK;
        }
        if (config.treeInForce() != null) {
            terminal.out().println();
            terminal.out().println("In force: ElasticQuotaTree " + config.treeInForce());
        }
        for (ConfigInForce.Refusal refusal : config.refused()) {
            terminal.out().println("Refused:  " + refusal.kind() + " " + refusal.namespace() + "/" + refusal.name() + " as applied at "
                    + refusal.at() + ": " + String.join("; ", refusal.reasons()));
        }
        return KubectlMuster.OK;
    }

    /** When the next job waiting under a node is expected to start, from now: {@code in 14m}, {@code now}, or {@code -} when not known. */
    private String eta(Instant nextStart) {
        if (nextStart == null) {
            return "-";
        }
        Duration until = Duration.between(terminal.clock().instant(), nextStart);
        return until.isNegative() || until.isZero() ? "now" : "in " + HumanDuration.of(until);
    }

    /** An empty cell, or one an older queue service does not send, as kubectl prints what is not set. */
    private static String orDash(String cell) {
        return cell == null || cell.isEmpty() ? "-" : cell;
    }
}
