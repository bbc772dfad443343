package dev.muster.testing.seed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;

/** The vendor document's four manifests, verbatim, and the events a test builds from them. */
public final class Seed {

    public static final String ELASTIC_QUOTA_TREE = "elastic-quota-tree.yaml";
    public static final String POLICY_GANG = "propagation-policy-gang.yaml";
    public static final String POLICY_GANG_QUEUE = "propagation-policy-gang-queue.yaml";
    public static final String PYTORCH_JOB = "pytorch-job.yaml";

    private static final String SOURCE = "/test";

    private Seed() {
    }

    /** One manifest's text, as the vendor document has it. */
    public static String text(String name) {
        try (InputStream in = Seed.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no seed manifest " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ElasticQuotaTree tree() {
        return Manifests.read(text(ELASTIC_QUOTA_TREE), ElasticQuotaTree.class);
    }

    /** The seed's PropagationPolicy with queueing ({@code suspension.scheduling: true}), in the given namespace. */
    public static PropagationPolicy queuePolicy(String namespace) {
        PropagationPolicy policy = Manifests.read(text(POLICY_GANG_QUEUE), PropagationPolicy.class);
        policy.getMetadata().setNamespace(namespace);
        return policy;
    }

    /** The seed's PyTorchJob (one master, two workers) under another name and namespace. */
    public static PyTorchJob job(String namespace, String name) {
        PyTorchJob job = Manifests.read(text(PYTORCH_JOB), PyTorchJob.class);
        job.getMetadata().setNamespace(namespace);
        job.getMetadata().setName(name);
        return job;
    }

    /** The seed job of this name, naming a PriorityClass ({@code runPolicy.schedulingPolicy.priorityClass}). */
    public static PyTorchJob job(String namespace, String name, String priorityClass) {
        PyTorchJob job = job(namespace, name);
        job.setSpec(new dev.muster.model.job.PyTorchJobSpec(job.getSpec().pytorchReplicaSpecs(), new dev.muster.model.job.RunPolicy(null, null,
                null, null, new dev.muster.model.job.SchedulingPolicy(null, null, null, priorityClass, null, java.util.Map.of()), null, null,
                java.util.Map.of()), job.getSpec().cleanPodPolicy(), java.util.Map.of()));
        return job;
    }

    public static ConfigEvent treeApplied() {
        return ConfigEvent.create(SOURCE, Instant.now(), new QuotaTreeApplied(tree()));
    }

    public static ConfigEvent queuePolicyApplied(String namespace) {
        return ConfigEvent.create(SOURCE, Instant.now(), new PolicyApplied(queuePolicy(namespace)));
    }

    /** A submission of the seed job under a new UID, as a producer on the Kafka path sends it. */
    public static JobEvent submission(String namespace, String name) {
        return JobEvent.create(SOURCE, new JobRef(namespace, name, UUID.randomUUID().toString()), Instant.now(),
                new JobSubmitted(job(namespace, name)));
    }
}
