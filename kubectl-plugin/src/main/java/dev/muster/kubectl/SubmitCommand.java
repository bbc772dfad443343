package dev.muster.kubectl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kubectl muster submit -f FILE}: a PyTorchJob submitted on the Kafka path. */
@Command(name = "submit", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Submit a PyTorchJob on the Kafka path (muster.job.submissions). On a secured cluster the job goes to the SASL"
                + " user's own inbox, muster.job.submissions.USER.",
        footer = {"", "Examples:", "  kubectl muster submit -f examples/pytorch-job.yaml -n team-a",
                "  cat job.yaml | kubectl muster submit -f -"})
final class SubmitCommand implements Callable<Integer> {

    private final Terminal terminal;

    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE", description = "The manifest; - reads standard input.")
    String file;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "The job's namespace (default: the manifest's, else default).")
    String namespace;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "Kafka's bootstrap servers (default: $MUSTER_KAFKA, else the local stack's).")
    String kafka;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "A Kafka client properties file for a secured cluster (security.protocol, sasl.*, ssl.*; default: $MUSTER_KAFKA_CONFIG).")
    String kafkaConfig;

    @Mixin
    Connection connection;

    SubmitCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws CommandFailedException {
        String text;
        try {
            text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(Path.of(file));
        } catch (IOException e) {
            throw new CommandFailedException("cannot read " + file + ": " + e.getMessage());
        }
        PyTorchJob job;
        try {
            job = Manifests.read(text, PyTorchJob.class);
        } catch (RuntimeException e) {
            throw new CommandFailedException(file + " is not a PyTorchJob manifest: " + e.getMessage());
        }
        if (job.getMetadata() == null || job.getMetadata().getName() == null) {
            throw new CommandFailedException(file + ": metadata.name is required");
        }
        if (namespace != null) {
            job.getMetadata().setNamespace(namespace);
        } else if (job.getMetadata().getNamespace() == null) {
            job.getMetadata().setNamespace("default");
        }
        String uid = KafkaSubmitter.of(kafka(), clientConfig()).submit(job);
        terminal.out().println("pytorchjob.kubeflow.org/" + job.getMetadata().getName() + " submitted on the Kafka path (uid " + uid + ")");
        return KubectlMuster.OK;
    }

    /** Kafka's bootstrap servers: the flag, the environment, the local stack's endpoints file, or the local default. */
    String kafka() {
        return connection.kafka(terminal, kafka);
    }

    private Path clientConfig() {
        String config = kafkaConfig != null ? kafkaConfig : terminal.environment().get("MUSTER_KAFKA_CONFIG");
        return config == null || config.isBlank() ? null : Path.of(config);
    }
}
