package dev.muster.kafka.broker;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The entry point of the broker's child JVM: formats the KRaft storage on first start, then runs the broker.
 * <p>
 * Runs only on the classpath {@link BrokerRuntime} builds, never in a test or service JVM.
 * Arguments: {@code <server.properties> <cluster id> [--exit-with-parent]}. With {@code --exit-with-parent}
 * it halts when its standard input closes, so a broker never outlives the test JVM that started it. A file
 * {@value BrokerRuntime#FORMAT_ARGUMENTS} beside the properties adds its lines, one argument each, to the storage tool's
 * {@code format} (a secured broker's first SCRAM user: credentials stay off the command line).
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: BrokerMain <server.properties> <cluster id> [--exit-with-parent]");
            System.exit(2);
        }
        String config = args[0];
        String clusterId = args[1];
        if (args.length > 2 && "--exit-with-parent".equals(args[2])) {
            exitWhenParentCloses();
        }
        if (!isFormatted(config)) {
            List<String> format = new ArrayList<>(List.of("format", "--cluster-id", clusterId, "--config", config, "--standalone"));
            Path more = Path.of(config).resolveSibling(BrokerRuntime.FORMAT_ARGUMENTS);
            if (Files.exists(more)) {
                Files.readAllLines(more).stream().filter(line -> !line.isBlank()).forEach(format::add);
            }
            int status = kafka.tools.StorageTool.execute(format.toArray(String[]::new), System.out);
            if (status != 0) {
                System.err.println("formatting the broker storage failed with status " + status);
                System.exit(status);
            }
        }
        kafka.Kafka.main(new String[] {config});
    }

    private static boolean isFormatted(String config) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = new FileInputStream(config)) {
            properties.load(in);
        }
        return Files.exists(Path.of(properties.getProperty("log.dirs"), "meta.properties"));
    }

    private static void exitWhenParentCloses() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent writes nothing; end of stream means it is gone
                }
            } catch (IOException e) {
                // a broken pipe means the same as end of stream
            }
            Runtime.getRuntime().halt(0);
        }, "exit-with-parent");
        watcher.setDaemon(true);
        watcher.start();
    }
}
