package dev.muster.simulator.cluster;

import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes' rules for object names, with its wording: most kinds take a DNS-1123 subdomain, namespaces a DNS-1123 label. */
final class KubernetesNames {

    private static final String LABEL_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_REGEX = LABEL_REGEX + "(\\." + LABEL_REGEX + ")*";
    private static final Pattern LABEL = Pattern.compile(LABEL_REGEX);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_REGEX);
    private static final int MAX_LABEL = 63;
    private static final int MAX_SUBDOMAIN = 253;

    private KubernetesNames() {
    }

    /** What is wrong with an object's name, as the API server says it; empty when it is a valid name. */
    static Optional<String> problem(String name, boolean label) {
        if (name == null || name.isEmpty()) {
            return Optional.of("Required value: name or generateName is required");
        }
        int max = label ? MAX_LABEL : MAX_SUBDOMAIN;
        if (name.length() > max) {
            return Optional.of("Invalid value: \"" + name + "\": must be no more than " + max + " characters");
        }
        if (label && !LABEL.matcher(name).matches()) {
            return Optional.of("Invalid value: \"" + name + "\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or"
                    + " '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '"
                    + LABEL_REGEX + "')");
        }
        if (!label && !SUBDOMAIN.matcher(name).matches()) {
            return Optional.of("Invalid value: \"" + name + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                    + " '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
                    + SUBDOMAIN_REGEX + "')");
        }
        return Optional.empty();
    }
}
