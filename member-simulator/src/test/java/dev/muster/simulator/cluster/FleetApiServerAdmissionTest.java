package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.testing.kubectl.Kubectl;

/**
 * The fleet API server refuses what a real one refuses, with the real one's words, at apply time: objects that do not
 * match their CRD's schema, bad names, objects too large, jobs Muster's admission denies, content it cannot read; and
 * it applies changes as a real one does (lists replaced), serves the built-in kinds users apply beside their jobs, and
 * documents the schemas for {@code kubectl explain}. Driven with the real kubectl.
 */
class FleetApiServerAdmissionTest extends FleetApiServerTests {

    private static String seedJob(String name) throws Exception {
        return Files.readString(EXAMPLES.resolve("pytorch-job.yaml")).replace("name: pytorch-test\n", "name: " + name + "\n");
    }

    private static Kubectl.Result apply(String manifest, String... options) throws Exception {
        Path file = Files.createTempFile(home, "manifest", ".yaml");
        Files.writeString(file, manifest);
        String[] arguments = new String[options.length + 3];
        arguments[0] = "apply";
        arguments[1] = "-f";
        arguments[2] = file.toString();
        System.arraycopy(options, 0, arguments, 3, options.length);
        return kubectl.run(arguments);
    }

    @Test
    void aJobThatDoesNotMatchItsSchemaIsRefusedAtApplyWithTheFieldNamed() throws Exception {
        Kubectl.Result refused = apply(seedJob("bad-two").replaceFirst("replicas: 2", "replicas: \"two\""));

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains("The PyTorchJob \"bad-two\" is invalid: spec.pytorchReplicaSpecs.Worker.replicas: Invalid value: "
                + "\"string\": spec.pytorchReplicaSpecs.Worker.replicas in body must be of type integer: \"string\"");
        assertThat(fleet.resources(PyTorchJob.class).inNamespace("default").withName("bad-two").get()).isNull();
    }

    @Test
    void aJobMusterWouldRejectIsDeniedAtApplyWithMustersReasonAndADryRunSaysTheSame() throws Exception {
        String negative = seedJob("bad-negative").replaceFirst("replicas: 2", "replicas: -1");

        Kubectl.Result refused = apply(negative);
        Kubectl.Result dryRun = apply(negative, "--dry-run=server");
        Kubectl.Result cpu = apply(seedJob("bad-cpu").replace("cpu: \"2\"", "cpu: \"two\""));

        String denial = "admission webhook \"validate.muster.dev\" denied the request: spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1";
        assertThat(refused.err()).contains(denial);
        assertThat(dryRun.exitCode()).isNotZero();
        assertThat(dryRun.err()).contains(denial);
        assertThat(cpu.err()).contains("spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.requests.cpu: cannot parse quantity \"two\"");
    }

    /** As the Priority admission plugin does for pods: the class a job names must exist when the job is created. */
    @Test
    void aJobNamingAPriorityClassThatDoesNotExistIsForbiddenUntilTheClassIsCreated() throws Exception {
        String job = seedJob("prioritised").replace("  cleanPodPolicy: None\n", "  cleanPodPolicy: None\n  runPolicy:\n    schedulingPolicy:\n"
                + "      priorityClass: research-high\n");

        Kubectl.Result forbidden = apply(job);
        Kubectl.Result created = kubectl.run("create", "priorityclass", "research-high", "--value=5000", "--description=research jobs");
        Kubectl.Result accepted = apply(job);

        assertThat(forbidden.err()).contains("Error from server (Forbidden)")
                .contains("pytorchjobs.kubeflow.org \"prioritised\" is forbidden: no PriorityClass with name research-high was found");
        assertThat(created.succeeded()).contains("priorityclass.scheduling.k8s.io/research-high created");
        assertThat(accepted.succeeded()).contains("pytorchjob.kubeflow.org/prioritised created");
        assertThat(kubectl.run("get", "priorityclass").succeeded()).contains("system-cluster-critical").contains("system-node-critical")
                .contains("research-high");
    }

    @Test
    void priorityClassesAreRefusedAsKubernetesRefusesThem() throws Exception {
        Kubectl.Result reserved = kubectl.run("create", "priorityclass", "system-mine", "--value=10");
        Kubectl.Result tooHigh = kubectl.run("create", "priorityclass", "above-users", "--value=1000000001");

        assertThat(reserved.err()).contains("priority class names with 'system-' prefix are reserved for system use only");
        assertThat(tooHigh.err()).contains("maximum allowed value of a user defined priority is 1000000000");
    }

    @Test
    void aServerDryRunOfAValidJobSaysCreatedAndStoresNothing() throws Exception {
        Kubectl.Result dryRun = apply(seedJob("only-tried"), "--dry-run=server");

        assertThat(dryRun.succeeded()).contains("pytorchjob.kubeflow.org/only-tried created (server dry run)");
        assertThat(fleet.resources(PyTorchJob.class).inNamespace("default").withName("only-tried").get()).isNull();
    }

    @Test
    void namesThatAreNotDnsSubdomainsAndObjectsOverTheSizeLimitAreRefused() throws Exception {
        Kubectl.Result upper = apply(seedJob("Bad-Name"));
        Kubectl.Result long300 = apply(seedJob("a".repeat(300)));
        String blob = seedJob("too-big").replaceFirst("\n  labels:\n", "\n  annotations:\n    blob: \"" + "x".repeat(2_000_000) + "\"\n  labels:\n");
        Kubectl.Result big = apply(blob);

        assertThat(upper.err()).contains("metadata.name: Invalid value: \"Bad-Name\": a lowercase RFC 1123 subdomain must consist of lower case"
                + " alphanumeric characters, '-' or '.'");
        assertThat(long300.err()).contains("must be no more than 253 characters");
        assertThat(big.err()).contains("RequestEntityTooLarge").contains("a Kubernetes API server stores at most 1572864");
    }

    @Test
    void applyingAChangedTreeReplacesItsListsSoAChangeCanBeUndone() throws Exception {
        String treeA = Files.readString(EXAMPLES.resolve("elastic-quota-tree.yaml"));
        String treeB = treeA.replace("      namespaces:\n        - default", "      namespaces:\n        - default\n    - name: team-b\n"
                + "      max:\n        cpu: 100\n      namespaces:\n        - team-b");
        apply(treeA).succeeded();
        apply(treeB).succeeded();
        apply(treeA).succeeded();

        ElasticQuotaTree tree = fleet.resources(ElasticQuotaTree.class).inNamespace("kube-system").withName("elasticquotatree").get();
        assertThat(tree.getSpec().root().childNodes()).extracting(node -> node.name()).containsExactly("child-2");
    }

    @Test
    void theBuiltInKindsUsersApplyBesideTheirJobsAreServedAsKubectlSendsThem() {
        // kubectl's typed commands send protobuf.
        assertThat(kubectl.run("create", "namespace", "team-a").succeeded()).contains("namespace/team-a created");
        assertThat(kubectl.run("create", "priorityclass", "high", "--value=1000").succeeded()).contains("priorityclass.scheduling.k8s.io/high created");

        assertThat(kubectl.run("get", "ns").succeeded()).contains("default", "kube-system", "team-a");
        assertThat(kubectl.run("get", "priorityclass", "high", "-o", "jsonpath={.value}").succeeded()).isEqualTo("1000");
        assertThat(kubectl.run("delete", "pytorchjob", "never-was").err()).contains("pytorchjobs.kubeflow.org \"never-was\" not found");
    }

    @Test
    void contentTheServerCannotReadIsRefusedAtOnceAndNeverHoldsUpOtherClients() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        byte[] podAsProtobuf = {'k', '8', 's', 0, 0x0a, 0x09, 0x0a, 0x02, 'v', '1', 0x12, 0x03, 'P', 'o', 'd'};
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/vnd.kubernetes.protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(podAsProtobuf)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(415);
        }
        HttpResponse<String> cbor = http.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/cbor").POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(cbor.statusCode()).isEqualTo(415);
        assertThat(kubectl.run("get", "ns").succeeded()).contains("default");
    }

    @Test
    void kubectlExplainReadsTheSchemasOfTheCustomResources() {
        String explained = kubectl.run("explain", "pytorchjob.spec.pytorchReplicaSpecs").succeeded();

        assertThat(explained).contains("KIND:       PyTorchJob").contains("FIELD: pytorchReplicaSpecs");
        assertThat(kubectl.run("explain", "elasticquotatree.spec.root").succeeded()).contains("children").contains("namespaces");
    }
}
