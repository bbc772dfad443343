package dev.muster.bench.memory;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.muster.bench.placement.TraceFleet;
import dev.muster.bench.quota.QuotaTrees;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.job.JobManifest;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.QuotaTree;
import dev.muster.queue.kubernetes.JobIdentityStore;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.statussync.kubernetes.MemberJobCache;
import dev.muster.statussync.kubernetes.MemberPodCache;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The heap Muster's decision state takes at scale, measured in-process (live heap after full collections, before
 * and after building it): 100,000 queued jobs in the quota core; the same jobs' specs parsed, and as the queue
 * service keeps them in its queue and in its fleet informer's cache; 20,000 nodes of inventory (20 members of
 * 1,000 trace-shaped, partly filled nodes) with their index; 100,000 jobs bound in the placement core; and 100,000
 * running member pods (the seed job's, as a simulated member serves them) and member copies of jobs, parsed, and as
 * status sync's member caches keep them.
 * <pre>
 * java -Xmx4g -cp bench/target/bench.jar dev.muster.bench.memory.MemoryFootprint
 * </pre>
 */
public final class MemoryFootprint {

    private static final int JOBS = 100_000;
    private static final int LEAVES = 100;

    private MemoryFootprint() {
    }

    public static void main(String[] args) throws Exception {
        String seedJob = Files.readString(Path.of("examples/pytorch-job.yaml"));
        Path shapes = Path.of(args.length > 0 ? args[0] : "../shared/traces/alibaba-clusterdata/cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv");
        System.out.printf(Locale.ROOT, "%-62s %10s%n", "state", "heap MiB");
        measure("quota core: 100,000 jobs queued over 100 leaves", () -> queuedQuota(JOBS));
        measure("job specs: 100,000 PyTorchJobs (the seed's) as parsed", () -> seedJobs(seedJob, job -> job));
        measure("queue service: the same, as its queue keeps them (JSON)", () -> seedJobs(seedJob, JobManifest::of));
        measure("queue service: the same, as its fleet informer keeps them", () -> {
            JobIdentityStore store = new JobIdentityStore();
            for (int i = 0; i < JOBS; i++) {
                GenericKubernetesResource job = raw(seedJob(seedJob, i));
                store.put(store.getKey(job), job);
            }
            return store;
        });
        measure("placement core: 100,000 running jobs (admission, binding)", () -> runningPlacements(seedJob));
        measure("placement inventory: 20 members x 1,000 nodes, indexed", () -> {
            List<ClusterInventory> fleet = TraceFleet.build(20, 1000, TraceFleet.shapes(shapes), 2026);
            fleet.forEach(ClusterInventory::index);
            return fleet;
        });
        List<String> runningPods = runningSeedPods(seedJob);
        measure("status sync: 100,000 running member pods, as parsed", () -> memberPods(runningPods, pod -> pod));
        measure("status sync: the same, as its member pod cache keeps them", () -> memberPods(runningPods, MemberPodCache::reduced));
        measure("status sync: 100,000 member PyTorchJob copies, as parsed", () -> seedJobs(seedJob, MemoryFootprint::memberCopy));
        measure("status sync: the same, as its member job cache keeps them", () -> seedJobs(seedJob,
                job -> MemberJobCache.reduced(raw(memberCopy(job)))));
    }

    /** The job as the informers read it: raw. */
    private static GenericKubernetesResource raw(PyTorchJob job) {
        return dev.muster.model.json.MusterJson.json().convertValue(job, GenericKubernetesResource.class);
    }

    /** The placement core with every job bound on one member: what it keeps of a running job, its promises included. */
    private static GangPlacer runningPlacements(String seedJob) {
        Instant now = Instant.parse("2026-11-30T00:00:00Z");
        GangPlacer placer = new GangPlacer(PlacementSettings.defaults(), Clock.fixed(now, ZoneOffset.UTC));
        placer.handle(MemberEvent.create("/bench", now, new MemberEventData.MemberReported(new MemberSnapshot("member-a", true, false, Map.of(), now))));
        ResourceList roomy = ResourceList.parse(Map.of("cpu", "1000000", "memory", "1000000Gi", "pods", "1000000"));
        for (int node = 0; node < 100; node++) {
            placer.handle(MemberEvent.create("/bench", now, new MemberEventData.NodeReported("member-a",
                    new NodeSnapshot("node-" + node, Map.of(), List.of(), roomy, true, false))));
        }
        for (int i = 0; i < JOBS; i++) {
            PyTorchJob job = seedJob(seedJob, i);
            JobRef ref = new JobRef("default", job.getMetadata().getName(), job.getMetadata().getUid());
            placer.handle(JobEvent.create("/muster/queue-service", ref, now, new JobAdmitted(job, null, "root", ResourceList.empty())));
            placer.result(new MemberResult.JobCreated("member-a", ref));
        }
        placer.drainState();
        return placer;
    }

    private static PyTorchJob memberCopy(PyTorchJob fleetJob) {
        PyTorchJob copy = MemberJobs.forMember(fleetJob, fleetJob.getMetadata().getUid(), null, 0, Optional.empty());
        copy.getMetadata().setUid("copy-" + fleetJob.getMetadata().getUid());
        return copy;
    }

    /** The seed job's three pods as a simulated member serves them once they run, as JSON. */
    private static List<String> runningSeedPods(String seedJob) throws Exception {
        Path kubeconfigs = Files.createTempDirectory("memory-footprint");
        try (SimulatedFleet members = SimulatedFleet.start(FleetSpec.read(Path.of("deploy", "local", "seed-fleet.yaml")), kubeconfigs);
             KubernetesClient member = members.clusters().get(0).connect()) {
            PyTorchJob job = Manifests.read(seedJob, PyTorchJob.class);
            job.getMetadata().setLabels(Map.of(MemberJobs.POD_GROUP, "pytorch-test", MemberJobs.MIN_AVAILABLE, "3"));
            member.resources(PyTorchJob.class).inNamespace("default").resource(job).create();
            List<Pod> pods = Stream.of("pytorch-test-master-0", "pytorch-test-worker-0", "pytorch-test-worker-1")
                    .map(name -> member.pods().inNamespace("default").withName(name).waitUntilCondition(
                            pod -> pod != null && pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()), 60, TimeUnit.SECONDS))
                    .toList();
            return pods.stream().map(pod -> member.getKubernetesSerialization().asJson(pod)).toList();
        }
    }

    private static List<Pod> memberPods(List<String> runningPods, Function<Pod, Pod> kept) {
        KubernetesSerialization json = new KubernetesSerialization();
        List<Pod> pods = new ArrayList<>(JOBS);
        for (int i = 0; i < JOBS; i++) {
            Pod pod = json.unmarshal(runningPods.get(i % runningPods.size()), Pod.class);
            pod.getMetadata().setName(pod.getMetadata().getName() + "-" + i);
            pods.add(kept.apply(pod));
        }
        return pods;
    }

    private static <T> List<T> seedJobs(String seedJob, Function<PyTorchJob, T> kept) {
        List<T> jobs = new ArrayList<>(JOBS);
        for (int i = 0; i < JOBS; i++) {
            jobs.add(kept.apply(seedJob(seedJob, i)));
        }
        return jobs;
    }

    private static PyTorchJob seedJob(String seedJob, int i) {
        PyTorchJob job = Manifests.read(seedJob.replace("name: pytorch-test\n  namespace", "name: job-" + i + "\n  namespace"), PyTorchJob.class);
        job.getMetadata().setUid("uid-" + i);
        job.getMetadata().setResourceVersion(String.valueOf(i));
        return job;
    }

    private static void measure(String what, Supplier<Object> build) {
        long before = liveHeap();
        Object state = build.get();
        long after = liveHeap();
        System.out.printf(Locale.ROOT, "%-62s %10.1f%n", what, (after - before) / 1024.0 / 1024.0);
        // Kept reachable until measured.
        if (state.hashCode() == 42) {
            System.out.print("");
        }
    }

    private static QuotaAdmission queuedQuota(int jobs) {
        StringBuilder leaves = new StringBuilder();
        for (int leaf = 0; leaf < LEAVES; leaf++) {
            leaves.append("    - name: team-").append(leaf).append("\n      max: {nvidia.com/gpu: 8}\n      namespaces: [team-").append(leaf).append("]\n");
        }
        QuotaTree tree = QuotaTree.of(QuotaTrees.withRoot("""
                    name: root
                    max: {nvidia.com/gpu: 800}
                    children:
                """ + leaves));
        Instant now = Instant.parse("2026-11-30T00:00:00Z");
        List<JobStanding> standings = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            ResourceList demand = ResourceList.of(ResourceNames.GPU, BigDecimal.valueOf(1 + i % 4)).with(ResourceNames.CPU, BigDecimal.valueOf(8));
            QuotaJob job = new QuotaJob("uid-" + i, "team-" + i % LEAVES, "job-" + i, demand, i % 3, now.plusMillis(i), i);
            standings.add(new JobStanding(job, "team-" + i % LEAVES, null, now.plusMillis(i), null, 0, QuotaAdmission.QUOTA_EXCEEDED,
                    "team-" + i % LEAVES + ": nvidia.com/gpu 8/8 in use", null, List.of(), false));
        }
        return QuotaAdmission.restore(tree, QuotaSettings.defaults(), standings);
    }

    private static long liveHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
