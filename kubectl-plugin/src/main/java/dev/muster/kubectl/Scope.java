package dev.muster.kubectl;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Which namespaces a command looks at, as kubectl's {@code -n} and {@code -A}. */
final class Scope {

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "The namespace (default: default).")
    String namespace;

    @Option(names = {"-A", "--all-namespaces"}, description = "Across every namespace.")
    boolean allNamespaces;

    void check(CommandSpec command) {
        if (allNamespaces && namespace != null) {
            throw new ParameterException(command.commandLine(), "-A and -n cannot be used together");
        }
    }

    String namespace() {
        return namespace == null ? "default" : namespace;
    }

    /** The namespace, or null across all of them. */
    String namespaceOrAll() {
        return allNamespaces ? null : namespace();
    }
}
