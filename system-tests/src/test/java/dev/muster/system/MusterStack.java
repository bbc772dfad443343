package dev.muster.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.muster.local.LocalStack;
import dev.muster.local.LocalStackSettings;
import dev.muster.local.MusterService;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.simulator.cluster.SimulatedCluster;

/**
 * All of Muster on this machine, as {@code ./muster up} runs it (the same {@link LocalStack}), in a
 * temporary home, on free ports, logging beside the build output.
 */
final class MusterStack implements AutoCloseable {

    final FleetApiServer fleet;
    private final LocalStack stack;

    private MusterStack(LocalStack stack) {
        this.stack = stack;
        this.fleet = stack.fleet();
    }

    static MusterStack start(Path membersSpec) throws IOException {
        return start(membersSpec, Map.of());
    }

    /** With more system properties for some services, e.g. a shorter reservation timeout. */
    static MusterStack start(Path membersSpec, Map<MusterService, Map<String, String>> properties) throws IOException {
        return start(membersSpec, properties, null);
    }

    /** On a secured broker (TLS, SCRAM, ACLs) with these submitters, each with the namespaces it may use. */
    static MusterStack startSecured(Path membersSpec, Map<MusterService, Map<String, String>> properties,
                                    Map<String, java.util.Set<String>> submitters) throws IOException {
        return start(membersSpec, properties, new LocalStackSettings.SecuredKafka(submitters));
    }

    private static MusterStack start(Path membersSpec, Map<MusterService, Map<String, String>> properties,
                                     LocalStackSettings.SecuredKafka secured) throws IOException {
        Path home = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "muster-");
        LocalStackSettings settings = new LocalStackSettings(home, membersSpec, Path.of(".."), 0, Duration.ofSeconds(90), properties, secured);
        return new MusterStack(LocalStack.start(settings, step -> System.out.println("starting " + step)));
    }

    /** A Kafka client of the broker's super user: an operator's, which may write every topic. */
    dev.muster.testing.kafka.JobEventClient kafkaAsOperator() {
        return new dev.muster.testing.kafka.JobEventClient(stack.kafkaAdminSettings());
    }

    /** A Kafka client of a submitter of a secured stack. */
    dev.muster.testing.kafka.JobEventClient kafkaAs(String submitter) throws IOException {
        return new dev.muster.testing.kafka.JobEventClient(stack.kafkaClientSettings(submitter));
    }

    /** The submitter's Kafka client properties file, as {@code kubectl muster submit --kafka-config} takes it. */
    Path kafkaClientConfig(String submitter) {
        return stack.kafkaClientConfig(submitter);
    }

    /** Every password of the stack's Kafka users (services, submitters, the super user): what no log may hold. */
    java.util.List<String> kafkaPasswords() throws IOException {
        java.util.List<String> passwords = new java.util.ArrayList<>();
        for (Path folder : java.util.List.of(stack.settings().kafkaClients(), stack.settings().home().resolve("secrets"))) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    java.util.Properties properties = new java.util.Properties();
                    try (java.io.Reader reader = Files.newBufferedReader(file)) {
                        properties.load(reader);
                    }
                    properties.forEach((name, value) -> {
                        java.util.regex.Matcher password = java.util.regex.Pattern.compile("password=\"([^\"]+)\"").matcher(value.toString());
                        if (password.find()) {
                            passwords.add(password.group(1));
                        }
                    });
                }
            }
        }
        if (stack.broker().secured()) {
            passwords.add(stack.broker().adminCredentials().password());
        }
        return passwords;
    }

    /** Where the stack's Kafka broker listens. */
    String bootstrapServers() {
        return stack.broker().bootstrapServers();
    }

    /** An HTTP GET of one of a service's views, with the fleet kubeconfig's token as kubectl muster sends it. */
    java.net.http.HttpRequest view(MusterService service, String path) {
        return java.net.http.HttpRequest.newBuilder(java.net.URI.create(url(service) + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + dev.muster.model.json.Kubeconfig.bearerToken(fleet.kubeconfig(), null).orElseThrow())
                .build();
    }

    /** Each quota node's use of a resource, as {@code kubectl muster queues} shows it; empty when the queue does not answer. */
    java.util.Optional<Map<String, java.math.BigDecimal>> quotaUsed(String resource) {
        return queueView("/api/v1/queues", new com.fasterxml.jackson.core.type.TypeReference<java.util.List<dev.muster.model.quota.QuotaUsageRow>>() { })
                .map(rows -> rows.stream().filter(row -> resource.equals(row.resource()))
                        .collect(java.util.stream.Collectors.toMap(dev.muster.model.quota.QuotaUsageRow::node,
                                row -> new java.math.BigDecimal(row.used()))));
    }

    /**
     * Where the queue service holds the job now ({@code Admitted}, {@code Queuing}, ...), or empty when it holds it no more
     * (its view answers 404). A view that does not answer (a queue restarting answers 503) says nothing of the job: the
     * state is then {@code unknown (...)}, never taken for "held no more".
     */
    java.util.Optional<String> queueState(String namespace, String name) {
        java.util.Optional<java.net.http.HttpResponse<String>> response = queueAnswer("/api/v1/jobs/" + namespace + "/" + name);
        if (response.isPresent() && response.get().statusCode() == 404) {
            return java.util.Optional.empty();
        }
        if (response.isEmpty() || response.get().statusCode() != 200) {
            return java.util.Optional.of("unknown (the queue's view " + response.map(answer -> "answered " + answer.statusCode())
                    .orElse("did not answer") + ")");
        }
        try {
            return java.util.Optional.of(dev.muster.model.json.MusterJson.json().readValue(response.get().body(),
                    dev.muster.model.queue.JobQueueView.class).state());
        } catch (IOException e) {
            return java.util.Optional.of("unknown (the queue's view answered what is not a job's view: " + e.getMessage() + ")");
        }
    }

    /**
     * Deletes the jobs from the fleet and waits until the queue holds them no more, so that a test on the shared stack leaves
     * the quota it used free for the next.
     */
    void deleteJobs(String namespace, java.util.Collection<String> names) throws IOException {
        try (io.fabric8.kubernetes.client.KubernetesClient client = fleet.connect()) {
            names.forEach(name -> client.resources(dev.muster.model.job.PyTorchJob.class).inNamespace(namespace).withName(name).delete());
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> org.assertj.core.api.Assertions.assertThat(names)
                .as("jobs of %s the queue still holds after their deletion", namespace)
                .noneMatch(name -> queueState(namespace, name).isPresent()));
    }

    /** A job of one pod (its Master) with these limits, e.g. {@code cpu: "1", nvidia.com/gpu: "1"}, as YAML. */
    static String oneMasterJob(String namespace, String name, String limits) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: %s}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {%s}}}]}
                """.formatted(name, namespace, limits);
    }

    /** One of the queue service's views, read; empty when it does not answer 200. */
    private <T> java.util.Optional<T> queueView(String path, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        java.util.Optional<java.net.http.HttpResponse<String>> response = queueAnswer(path).filter(answer -> answer.statusCode() == 200);
        try {
            return response.isEmpty() ? java.util.Optional.empty()
                    : java.util.Optional.of(dev.muster.model.json.MusterJson.json().readValue(response.get().body(), type));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** The queue service's answer to a view's request; empty when none came. */
    private java.util.Optional<java.net.http.HttpResponse<String>> queueAnswer(String path) {
        try {
            return java.util.Optional.of(java.net.http.HttpClient.newHttpClient().send(view(MusterService.QUEUE, path),
                    java.net.http.HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /**
     * The GPUs the pods of each namespace hold on the members now: every pod bound to a node and not finished, terminating
     * ones included. Read from each member's own API server, past any fault Muster is made to see.
     */
    Map<String, java.math.BigDecimal> gpusHeld(java.util.Collection<String> namespaces, java.util.Collection<String> members) {
        Map<String, java.math.BigDecimal> held = new java.util.HashMap<>();
        for (String name : members) {
            io.fabric8.kubernetes.client.KubernetesClient client = member(name).client();
            for (String namespace : namespaces) {
                for (io.fabric8.kubernetes.api.model.Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
                    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
                    if (pod.getSpec().getNodeName() != null && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                        held.merge(namespace, dev.muster.model.resource.PodRequests.onNode(pod.getSpec())
                                .amount(dev.muster.model.resource.ResourceNames.GPU), java.math.BigDecimal::add);
                    }
                }
            }
        }
        return held;
    }

    /** The stack's broker, to kill and start again. */
    dev.muster.testing.kafka.KafkaBroker broker() {
        return stack.broker();
    }

    /** Whether the service answers its readiness probe with UP. */
    boolean ready(MusterService service) {
        return up(service, "/q/health/ready");
    }

    /** Whether the service answers its liveness probe with UP: what Kubernetes restarts it on. */
    boolean live(MusterService service) {
        return up(service, "/q/health/live");
    }

    private boolean up(MusterService service, String probe) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url(service)
                    + probe)).timeout(Duration.ofSeconds(2)).build(), java.net.http.HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A service's HTTP base address. */
    String url(MusterService service) {
        return "http://127.0.0.1:" + stack.port(service);
    }

    /** Restarts the service cleanly with more system properties for one run: a crash point, which crashes it once. */
    void restart(MusterService service, Map<String, String> forThisRun) throws IOException, InterruptedException {
        stack.restart(service, forThisRun);
    }

    /** Stops the service, and keeps it stopped until {@link #startService}. */
    void stopService(MusterService service) throws InterruptedException {
        stack.stopService(service);
    }

    /** Starts a service {@link #stopService stopped} on purpose; returns once it is ready. */
    void startService(MusterService service) throws IOException {
        stack.startService(service);
    }

    /** The running process of one service, to kill as a crash would. */
    dev.muster.testing.service.ServiceProcess service(MusterService service) {
        return stack.service(service);
    }

    /** The services' network to the fleet API, to cut and heal; this test's own fleet client reaches the API past it. */
    dev.muster.simulator.fault.ApiProxy fleetNetwork() {
        return stack.fleetNetwork();
    }

    SimulatedCluster member(String name) {
        return stack.member(name);
    }

    /** Every log the stack's processes wrote (the services'), and the broker's segments of every topic: what none may hold. */
    java.util.List<Path> logFiles() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(stack.settings().home())) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log") && Files.isRegularFile(file)).toList();
        }
    }

    /** Where each service's log is, for a failure message. */
    String logs() {
        return "queue " + stack.service(MusterService.QUEUE).log() + ", placement " + stack.service(MusterService.PLACEMENT).log()
                + ", status sync " + stack.service(MusterService.STATUS_SYNC).log();
    }

    /**
     * What each service's readiness says now, watches and channels included, for a failing test's message: a service
     * that stopped hearing its inputs says which here, and its log may not.
     */
    String readiness() {
        StringBuilder text = new StringBuilder();
        for (MusterService service : java.util.List.of(MusterService.QUEUE, MusterService.PLACEMENT, MusterService.STATUS_SYNC)) {
            String body;
            try {
                body = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url(service)
                        + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            } catch (IOException e) {
                body = "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                body = "interrupted";
            }
            text.append('\n').append(service.artifact()).append(": ").append(body.replaceAll("\\s+", " "));
        }
        return text.toString();
    }

    /**
     * What the services logged about one job, oldest first: their one line per decision, so a failed wait says where
     * the job stopped rather than only that it did. At most the last {@code 60} lines.
     */
    String story(String namespace, String name) {
        java.util.regex.Pattern about = java.util.regex.Pattern.compile("\\bjob " + java.util.regex.Pattern.quote(namespace + "/" + name) + "\\b");
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (MusterService service : java.util.List.of(MusterService.QUEUE, MusterService.PLACEMENT, MusterService.STATUS_SYNC)) {
            try (java.util.stream.Stream<String> log = Files.lines(stack.service(service).log(), java.nio.charset.StandardCharsets.UTF_8)) {
                log.filter(line -> about.matcher(line).find()).forEach(lines::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                lines.add("(" + service.artifact() + "'s log could not be read: " + e.getMessage() + ")");
            }
        }
        // Each line starts with its timestamp, so text order is time order across the three logs.
        java.util.Collections.sort(lines);
        java.util.List<String> last = lines.subList(Math.max(0, lines.size() - 60), lines.size());
        return "what the services logged about " + namespace + "/" + name + (last.isEmpty() ? ": nothing" : ":\n" + String.join("\n", last));
    }

    /** Awaits {@code assertion} about one job; past the deadline, fails with what the services logged about it. */
    void awaitJob(String namespace, String name, Duration deadline, org.awaitility.core.ThrowingRunnable assertion) {
        try {
            org.awaitility.Awaitility.await().atMost(deadline).untilAsserted(assertion);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n" + story(namespace, name), e);
        }
    }

    @Override
    public void close() {
        stack.close();
    }
}
