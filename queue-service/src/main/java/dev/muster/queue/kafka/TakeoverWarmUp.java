package dev.muster.queue.kafka;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.WarmUpJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.quota.QuotaSettings;

/**
 * Takes a scratch queue through what a takeover does, on made-up inputs: a quota tree and a queueing policy applied,
 * two gangs submitted (one admitted, one waiting behind it), the state written, encoded and restored into a second
 * queue. Nothing leaves this class.
 */
final class TakeoverWarmUp {

    private static final String NAME = "muster-warm-up";
    private static final String TREE = """
            {"apiVersion": "scheduling.sigs.k8s.io/v1beta1", "kind": "ElasticQuotaTree", "metadata": {"name": "%1$s", "namespace": "kube-system"},
             "spec": {"root": {"name": "root", "max": {"cpu": "64", "nvidia.com/gpu": "8"}, "min": {"cpu": "64", "nvidia.com/gpu": "8"},
               "children": [{"name": "%1$s", "max": {"cpu": "8", "nvidia.com/gpu": "2", "kube-queue/max-jobs": "1"},
                             "min": {"cpu": "8", "nvidia.com/gpu": "2"}, "namespaces": ["%1$s"]}]}}}
            """.formatted(NAME);
    private static final String POLICY = """
            {"apiVersion": "policy.one.alibabacloud.com/v1alpha1", "kind": "PropagationPolicy", "metadata": {"name": "%1$s", "namespace": "%1$s"},
             "spec": {"suspension": {"scheduling": true}, "resourceSelectors": [{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob"}],
                      "placement": {"replicaScheduling": {"replicaSchedulingType": "Divided", "customSchedulingType": "Gang"}}}}
            """.formatted(NAME);

    private TakeoverWarmUp() {
    }

    /** @return how many jobs the restored queue tracks: both gangs, if the warm-up went the whole way */
    static int run(QuotaSettings settings) {
        Clock clock = Clock.systemUTC();
        Instant now = clock.instant();
        FleetQueue queue = new FleetQueue(settings, clock);
        queue.handle(ConfigEvent.create(NAME, now, new QuotaTreeApplied(Manifests.read(TREE, ElasticQuotaTree.class))));
        queue.handle(ConfigEvent.create(NAME, now, new PolicyApplied(Manifests.read(POLICY, PropagationPolicy.class))));
        for (String name : List.of(NAME + "-1", NAME + "-2")) {
            PyTorchJob job = WarmUpJob.of(NAME, name);
            queue.handle(JobEvent.create(NAME, new JobRef(NAME, name, name), now, new JobSubmitted(job)));
        }
        List<Entry> written = queue.drainState();
        return FleetQueue.restore(settings, clock, written).jobs().size();
    }
}
