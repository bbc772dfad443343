package dev.muster.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

/** kubectl muster against a status sync that answers with recorded views. */
class KubectlMusterTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private HttpServer statusSync;
    private String url;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void startStatusSync() throws IOException {
        statusSync = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        answer("/api/v1/members/pytorchjobs", 200, """
                [{"name":"pytorch-test","namespace":"default","cluster":"gpu-a","state":"Running","created":"2026-11-30T11:55:00Z","adoption":"Y","fleetUid":"u1"},
                 {"name":"local-job","namespace":"team-a","cluster":"gpu-b","state":"Succeeded","created":"2026-11-28T12:00:00Z","adoption":"N"}]""");
        answer("/api/v1/members/pods", 200, """
                [{"name":"pytorch-test-master-0","namespace":"default","cluster":"gpu-a","ready":"1/1","status":"Running","restarts":0,"created":"2026-11-30T11:59:15Z","node":"a-1"},
                 {"name":"pytorch-test-worker-0","namespace":"default","cluster":"gpu-a","ready":"0/1","status":"CrashLoopBackOff","restarts":12,"created":"2026-11-30T11:59:15Z"}]""");
        answer("/api/v1/queues", 200, """
                [{"node":"root","queue":"root-kdzw7","waiting":1,"resource":"kube-queue/max-jobs","used":"1","min":"10000000000","max":"10000000000",
                  "weight":"","share":"","fairShare":"","nextStart":"2026-11-30T12:14:00Z"},
                 {"node":"root/child-2","queue":"root-child-2-v5zxz","waiting":1,"resource":"kube-queue/max-jobs","used":"1","min":"","max":"1",
                  "weight":"2","share":"37.5%","fairShare":"66.7%","nextStart":"2026-11-30T12:14:00Z"},
                 {"node":"root/child-3","queue":"root-child-3-x8k2p","waiting":0,"resource":"kube-queue/max-jobs","used":"0","min":"","max":"1"}]""");
        answer("/api/v1/config", 200, """
                {"treeInForce":"kube-system/elasticquotatree (resourceVersion 12)",
                 "refused":[{"kind":"ElasticQuotaTree","namespace":"kube-system","name":"another-tree",
                             "reasons":["only one ElasticQuotaTree is supported and ElasticQuotaTree kube-system/elasticquotatree is in force"],
                             "at":"2026-11-30T11:58:00Z"}]}""");
        answer("/api/v1/jobs/default/waiting", 200, """
                {"namespace":"default","name":"waiting","uid":"u2","state":"Queuing","queue":"root-child-2-v5zxz","position":1,
                 "reason":"QuotaExceeded","message":"root/child-2: kube-queue/max-jobs 1/1 in use","demand":"cpu=4010m, memory=4Gi",
                 "job":{"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"waiting","namespace":"default"},"spec":{}},
                 "estimatedStart":"2026-11-30T12:14:00Z",
                 "estimate":"after 1 job ends, were nothing new to arrive; where it is placed is not simulated"}""");
        answer("/api/v1/fit", 200, """
                [{"cluster":"gpu-c","fits":true,"partialGpuNodes":0,"freeGpu":16,"domain":"cloud.provider.com/topology-rack=r1"},
                 {"cluster":"gpu-b","fits":false,"reason":"no node has 8 nvidia.com/gpu free (largest free: 4 on node b-7)"}]""");
        answer("/api/v1/members/gpu-b/pytorchjobs/default/pytorch-test", 404, """
                {"error":"no PyTorchJob default/pytorch-test on member cluster gpu-b"}""");
        statusSync.start();
        url = "http://127.0.0.1:" + statusSync.getAddress().getPort();
    }

    private void answer(String path, int code, String body) {
        statusSync.createContext(path, exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
    }

    @AfterEach
    void stopStatusSync() {
        statusSync.stop(0);
    }

    private int run(Map<String, String> environment, String... args) {
        return new KubectlMuster(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                environment, Clock.fixed(NOW, ZoneOffset.UTC)).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void jobsAcrossMembersPrintAsTheVendorsAmcViewAlignedLikeKubectl() {
        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjob", "-M", "-A");

        assertThat(exit).isZero();
        assertThat(out()).isEqualTo("""
                NAMESPACE   NAME           CLUSTER   STATE       AGE   ADOPTION
                default     pytorch-test   gpu-a     Running     5m    Y
                team-a      local-job      gpu-b     Succeeded   2d    N
                """);
    }

    @Test
    void podsAcrossMembersShowReadinessStatusAndRestarts() {
        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pod", "-M");

        assertThat(exit).isZero();
        assertThat(out()).isEqualTo("""
                NAME                    CLUSTER   READY   STATUS             RESTARTS   AGE
                pytorch-test-master-0   gpu-a     1/1     Running            0          45s
                pytorch-test-worker-0   gpu-a     0/1     CrashLoopBackOff   12         45s
                """);
    }

    @Test
    void queuesShowEachNodesUseAgainstItsMinAndMaxAndItsFairShare() {
        int exit = run(Map.of("MUSTER_QUEUE_URL", url), "queues");

        assertThat(exit).isZero();
        // child-3's row is as a queue service from before fair sharing sends it: without weight or shares.
        assertThat(out()).isEqualTo("""
                NODE           QUEUE                WAITING   ETA      RESOURCE              USED   MIN           MAX           WEIGHT   SHARE   FAIR
                root           root-kdzw7           1         in 14m   kube-queue/max-jobs   1      10000000000   10000000000   -        -       -
                root/child-2   root-child-2-v5zxz   1         in 14m   kube-queue/max-jobs   1      -             1             2        37.5%   66.7%
                root/child-3   root-child-3-x8k2p   0         -        kube-queue/max-jobs   0      -             1             -        -       -

                In force: ElasticQuotaTree kube-system/elasticquotatree (resourceVersion 12)
                Refused:  ElasticQuotaTree kube-system/another-tree as applied at 2026-11-30T11:58:00Z: only one ElasticQuotaTree is supported\
                 and ElasticQuotaTree kube-system/elasticquotatree is in force
                """);
    }

    @Test
    void explainSaysWhereTheJobWaitsWhyWhenItWouldStartAndWhereItWouldFit() {
        int exit = run(Map.of("MUSTER_QUEUE_URL", url, "MUSTER_STATUS_URL", url, "MUSTER_PLACEMENT_URL", url), "explain", "pytorchjob", "waiting");

        assertThat(exit).isZero();
        assertThat(out()).isEqualTo("""
                Job:      default/waiting
                State:    Queuing in queue root-child-2-v5zxz, position 1
                Reason:   QuotaExceeded: root/child-2: kube-queue/max-jobs 1/1 in use
                Starts:   in about 14 min (2026-11-30 12:14 UTC), after 1 job ends, were nothing new to arrive; where it is placed is not simulated
                Demand:   cpu=4010m, memory=4Gi
                Runs on:  no member yet

                Clusters, best first, were it placed now:
                CLUSTER   FITS   WHY
                gpu-c     yes    all pods in cloud.provider.com/topology-rack=r1, partly used GPU nodes after: 0, GPUs free: 16
                gpu-b     no     no node has 8 nvidia.com/gpu free (largest free: 4 on node b-7)
                """);
    }

    @Test
    void explainOfAJobMusterDoesNotKnowFails() {
        int exit = run(Map.of("MUSTER_QUEUE_URL", url, "MUSTER_STATUS_URL", url), "explain", "pytorchjob", "nope");

        assertThat(exit).isEqualTo(KubectlMuster.FAILED);
        assertThat(err()).isEqualTo("error: Muster knows no PyTorchJob default/nope (not in its queues, on no member)\n");
    }

    @Test
    void jsonOutputIsTheRowsForScripts() throws IOException {
        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjobs", "-M", "-o", "json");

        assertThat(exit).isZero();
        var rows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out());
        assertThat(rows.findValuesAsText("cluster")).containsExactly("gpu-a", "gpu-b");
        assertThat(rows.findValuesAsText("adoption")).containsExactly("Y", "N");
        assertThat(out()).contains("\n  ");
    }

    @Test
    void aMembersJobAsYamlCanBeAppliedAgainItsStringsThatLookLikeNumbersQuoted() throws IOException {
        statusSync.createContext("/api/v1/members/gpu-a/pytorchjobs/default/pytorch-test", exchange -> {
            byte[] bytes = dev.muster.model.json.Manifests.toJson(dev.muster.model.json.Manifests.read(java.nio.file.Files.readString(
                    java.nio.file.Path.of("..", "examples", "pytorch-job.yaml")))).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });

        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjob", "pytorch-test", "-m", "gpu-a", "-o", "yaml");

        assertThat(exit).isZero();
        assertThat(out()).contains("value: \"0\"", "value: \"8\"");
        assertThat(dev.muster.model.json.Manifests.read(out())).isInstanceOf(dev.muster.model.job.PyTorchJob.class);
    }

    @Test
    void aJobMissingOnTheNamedMemberFailsWithStatusSyncsReason() {
        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjob", "pytorch-test", "-m", "gpu-b", "-o", "yaml");

        assertThat(exit).isEqualTo(KubectlMuster.FAILED);
        assertThat(err()).isEqualTo("error: no PyTorchJob default/pytorch-test on member cluster gpu-b\n");
        assertThat(out()).isEmpty();
    }

    @Test
    void anUnreachableMusterSaysWhereItLookedAndHowToPointElsewhere() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        int exit = run(Map.of(), "get", "pod", "-M", "--status-url", "http://127.0.0.1:" + closedPort);

        assertThat(exit).isEqualTo(KubectlMuster.FAILED);
        assertThat(err()).contains("cannot reach Muster's status sync at http://127.0.0.1:" + closedPort, "MUSTER_STATUS_URL");
    }

    @Test
    void wrongCommandLinesExitWith64AndSayWhatIsWrong() {
        assertThat(run(Map.of(), "get", "pytorchjob")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "get", "deployments", "-M")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "get", "pod", "-M", "-o", "table")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "get", "pytorchjob", "x", "-M")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "get", "pod", "-M", "-A", "-n", "x")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "describe", "pod")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "submit")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "get", "pod", "-M", "--colour")).isEqualTo(KubectlMuster.USAGE);
        assertThat(run(Map.of(), "queues", "-o", "name")).isEqualTo(KubectlMuster.USAGE);

        assertThat(err()).contains("add -M", "doesn't have a resource type \"deployments\"",
                "output format \"table\", allowed formats are: wide,json,yaml,name", "get pytorchjob NAME -m CLUSTER",
                "-A and -n cannot be used together", "unknown command \"describe\" for \"kubectl muster\"; it knows: get, explain,"
                        + " queues, submit, completion", "Missing required option: '--filename=FILE'", "Unknown option: '--colour'",
                "allowed formats are: json,yaml", "See 'kubectl muster get --help'.", "See 'kubectl muster submit --help'.");
        assertThat(out()).isEmpty();
    }

    @Test
    void everyCommandHasItsHelpAndNoCommandPrintsTheOverview() {
        assertThat(run(Map.of())).isZero();
        assertThat(out()).contains("Usage: kubectl muster", "get", "explain", "queues", "submit", "completion", "--kubeconfig");
        for (String command : java.util.List.of("get", "explain", "queues", "submit", "completion")) {
            out.reset();
            assertThat(run(Map.of(), command, "--help")).as(command).isZero();
            assertThat(out()).as(command).startsWith("Usage: kubectl muster " + command).contains("-h, --help");
        }
        out.reset();
        run(Map.of(), "get", "--help");
        assertThat(out()).contains("-n, --namespace=NAMESPACE", "-A, --all-namespaces", "-o, --output=FORMAT", "--kubeconfig=FILE",
                "--context=NAME", "kubectl muster get pytorchjob -M -A");
        assertThat(err()).isEmpty();
    }

    @Test
    void wideOutputAddsTheFleetUidOfJobsAndTheNodeOfPods() {
        run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjob", "-M", "-A", "-o", "wide");
        run(Map.of("MUSTER_STATUS_URL", url), "get", "pods", "-M", "-o", "wide");

        assertThat(out()).isEqualTo("""
                NAMESPACE   NAME           CLUSTER   STATE       AGE   ADOPTION   FLEET-UID
                default     pytorch-test   gpu-a     Running     5m    Y          u1
                team-a      local-job      gpu-b     Succeeded   2d    N          <none>
                NAME                    CLUSTER   READY   STATUS             RESTARTS   AGE   NODE
                pytorch-test-master-0   gpu-a     1/1     Running            0          45s   a-1
                pytorch-test-worker-0   gpu-a     0/1     CrashLoopBackOff   12         45s   <none>
                """);
    }

    @Test
    void nameOutputIsOneResourceSlashNameLineForEachObjectAsKubectlPrintsIt() {
        run(Map.of("MUSTER_STATUS_URL", url), "get", "pytorchjob", "-M", "-A", "-o", "name");
        run(Map.of("MUSTER_STATUS_URL", url), "get", "po", "-M", "-o", "name");

        assertThat(out()).isEqualTo("""
                pytorchjob.kubeflow.org/pytorch-test
                pytorchjob.kubeflow.org/local-job
                pod/pytorch-test-master-0
                pod/pytorch-test-worker-0
                """);
    }

    @Test
    void completionPrintsABashScriptThatKnowsTheCommandsAndFlags() {
        assertThat(run(Map.of(), "completion", "bash")).isZero();

        assertThat(out()).contains("complete -F", "kubectl-muster", "explain", "--all-members", "--kubeconfig");
        assertThat(run(Map.of(), "completion", "fish")).isEqualTo(KubectlMuster.USAGE);
    }

    /** What kubectl 1.26+ asks bin/kubectl_complete-muster, in cobra's protocol: candidates for the last word, then a directive. */
    @Test
    void kubectlsCompletionOfThePluginGetsCandidatesForTheWordBeingTyped() {
        assertThat(run(Map.of(), "__complete", "get", "pod", "--all")).isZero();
        assertThat(run(Map.of(), "__complete", "get", "pod", "-o", "")).isZero();
        assertThat(run(Map.of(), "__complete", "qu")).isZero();

        assertThat(out()).isEqualTo("--all-members\n--all-namespaces\n:4\njson\nname\nwide\nyaml\n:4\nqueues\n:4\n");
    }

    @Test
    void aManifestThatIsNotAJobIsRefusedBeforeAnythingIsSent(@TempDir Path folder) throws IOException {
        Path notAJob = Files.writeString(folder.resolve("policy.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");

        int exit = run(Map.of("MUSTER_KAFKA", "127.0.0.1:1"), "submit", "-f", notAJob.toString());

        assertThat(exit).isEqualTo(KubectlMuster.FAILED);
        assertThat(err()).startsWith("error: " + notAJob + " is not a PyTorchJob manifest");
    }

    @Test
    void kafkaIsFoundBesideTheKubeconfigTooUnlessTheEnvironmentSaysOtherwise(@TempDir Path home) throws IOException {
        Files.writeString(home.resolve(Connection.ENDPOINTS_FILE), "status-sync=" + url + "\nkafka=127.0.0.1:40001\n");
        Connection connection = new Connection();

        assertThat(connection.kafka(terminal(Map.of("KUBECONFIG", home.resolve("fleet.kubeconfig").toString())), null)).isEqualTo("127.0.0.1:40001");
        assertThat(connection.kafka(terminal(Map.of("MUSTER_KAFKA", "broker:9092")), null)).isEqualTo("broker:9092");
        assertThat(connection.kafka(terminal(Map.of()), null)).isEqualTo(Connection.DEFAULT_KAFKA);
        assertThat(connection.kafka(terminal(Map.of("MUSTER_KAFKA", "broker:9092")), "flag:9092")).isEqualTo("flag:9092");
        connection.kubeconfig = home.resolve("fleet.kubeconfig").toString();
        assertThat(connection.kafka(terminal(Map.of()), null)).as("beside --kubeconfig").isEqualTo("127.0.0.1:40001");
    }

    private Terminal terminal(Map<String, String> environment) {
        return new Terminal(System.out, System.err, environment, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void statusSyncIsFoundBesideTheKubeconfigTheLocalStackWrote(@TempDir Path home) throws IOException {
        Files.writeString(home.resolve("fleet.kubeconfig"), "apiVersion: v1\nkind: Config\n");
        Files.writeString(home.resolve(Connection.ENDPOINTS_FILE), "status-sync=" + url + "\n");

        int exit = run(Map.of("KUBECONFIG", home.resolve("fleet.kubeconfig").toString()), "get", "pod", "-M");

        assertThat(exit).isZero();
        assertThat(out()).contains("pytorch-test-master-0");
    }

    @Test
    void theViewsAreAskedWithTheBearerTokenOfTheKubeconfigsCurrentUser(@TempDir Path home) throws IOException {
        Files.writeString(home.resolve("fleet.kubeconfig"), """
                apiVersion: v1
                kind: Config
                current-context: fleet
                contexts: [{name: fleet, context: {cluster: fleet, user: muster}}]
                users: [{name: muster, user: {token: sent-token}}]
                """);
        java.util.List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        statusSync.removeContext("/api/v1/members/pods");
        statusSync.createContext("/api/v1/members/pods", exchange -> {
            sent.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] bytes = "[]".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });

        int exit = run(Map.of("KUBECONFIG", home.resolve("fleet.kubeconfig").toString(), "MUSTER_STATUS_URL", url), "get", "pod", "-M");

        assertThat(exit).isZero();
        assertThat(sent).containsExactly("Bearer sent-token");
    }

    @Test
    void theCredentialsAreThoseOfTheKubeconfigAndContextTheFlagsName(@TempDir Path home) throws IOException {
        Path kubeconfig = Files.writeString(home.resolve("two-contexts.kubeconfig"), """
                apiVersion: v1
                kind: Config
                current-context: fleet
                contexts: [{name: fleet, context: {cluster: fleet, user: muster}}, {name: admin, context: {cluster: fleet, user: admin}}]
                users: [{name: muster, user: {token: viewer-token}}, {name: admin, user: {token: admin-token}}]
                """);
        java.util.List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        statusSync.removeContext("/api/v1/members/pods");
        statusSync.createContext("/api/v1/members/pods", exchange -> {
            sent.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("[]".getBytes(StandardCharsets.UTF_8));
            exchange.close();
        });

        assertThat(run(Map.of("MUSTER_STATUS_URL", url), "get", "pod", "-M", "--kubeconfig", kubeconfig.toString())).isZero();
        assertThat(run(Map.of("MUSTER_STATUS_URL", url), "get", "pod", "-M", "--kubeconfig", kubeconfig.toString(), "--context", "admin")).isZero();
        assertThat(run(Map.of("MUSTER_STATUS_URL", url), "get", "pod", "-M", "--kubeconfig", kubeconfig.toString(), "--context", "nope"))
                .isEqualTo(KubectlMuster.FAILED);

        assertThat(sent).containsExactly("Bearer viewer-token", "Bearer admin-token");
        assertThat(err()).contains("error: context \"nope\" does not exist in " + kubeconfig);
    }

    @Test
    void aViewThatRefusesTheCredentialsSaysWhy() {
        statusSync.removeContext("/api/v1/members/pods");
        answer("/api/v1/members/pods", 401, """
                {"error":"the bearer token is not a viewer's of this service (muster.views.viewers)"}""");

        int exit = run(Map.of("MUSTER_STATUS_URL", url), "get", "pod", "-M");

        assertThat(exit).isNotZero();
        assertThat(err()).contains("the bearer token is not a viewer's of this service");
    }
}
