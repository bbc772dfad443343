package dev.muster.model.json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The four manifests of the vendor document, verbatim, as test resources. */
public final class SeedManifests {

    public static final String ELASTIC_QUOTA_TREE = "elastic-quota-tree.yaml";
    public static final String POLICY_GANG = "propagation-policy-gang.yaml";
    public static final String POLICY_GANG_QUEUE = "propagation-policy-gang-queue.yaml";
    public static final String PYTORCH_JOB = "pytorch-job.yaml";

    private SeedManifests() {
    }

    public static String text(String name) {
        try (InputStream in = SeedManifests.class.getResourceAsStream("/seed/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no seed manifest " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
