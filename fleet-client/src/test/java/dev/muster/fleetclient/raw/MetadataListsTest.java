package dev.muster.fleetclient.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

/** What a watch's audit compares the watch with: every object of the kind by its name, whatever the server sends with it. */
class MetadataListsTest {

    private static final ResourceDefinitionContext PODS = ResourceDefinitionContext.fromResourceType(Pod.class);

    private KubernetesMockServer server;
    private KubernetesClient client;

    @AfterEach
    void stop() {
        if (server != null) {
            client.close();
            server.destroy();
        }
    }

    private void start(boolean crud) {
        server = crud ? new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false)
                : new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
    }

    private static List<String> keys(List<HasMetadata> objects) {
        return objects.stream().map(object -> object.getMetadata().getNamespace() + "/" + object.getMetadata().getName()).sorted().toList();
    }

    private static Pod pod(String namespace, String name) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).addToLabels("app", "train").endMetadata()
                .withNewSpec().addNewContainer().withName("pytorch").withImage("pytorch:2").endContainer().endSpec().build();
    }

    @Test
    void everyObjectOfTheKindInEveryNamespaceIsListedByNameAndUidAlone() {
        start(true);
        Pod created = client.pods().inNamespace("team-a").resource(pod("team-a", "train-0")).create();
        client.pods().inNamespace("team-b").resource(pod("team-b", "train-0")).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("gpu-1").endMetadata().build()).create();

        List<HasMetadata> pods = MetadataLists.of(client, PODS);

        assertThat(keys(pods)).containsExactly("team-a/train-0", "team-b/train-0");
        // The UID tells an object from another made since under its name.
        assertThat(pods).filteredOn(pod -> pod.getMetadata().getNamespace().equals("team-a")).singleElement()
                .satisfies(pod -> assertThat(pod.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid()).isNotBlank());
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getMetadata().getLabels()).isNullOrEmpty());
        assertThat(keys(MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(Node.class)))).containsExactly("null/gpu-1");
    }

    @Test
    void theNamesListedAreTheKeysAnInformerHoldsItsObjectsBySoThatAnAuditOfAHealthyWatchFindsNothingMissed() throws Exception {
        start(true);
        client.pods().inNamespace("team-a").resource(pod("team-a", "train-0")).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("gpu-1").endMetadata().build()).create();
        try (SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().inform();
             SharedIndexInformer<Node> nodes = client.nodes().inform()) {
            pods.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
            nodes.start().toCompletableFuture().get(10, TimeUnit.SECONDS);

            assertThat(MetadataLists.of(client, PODS).stream().map(Cache::metaNamespaceKeyFunc)).containsExactlyElementsOf(pods.getStore().listKeys());
            assertThat(MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(Node.class)).stream().map(Cache::metaNamespaceKeyFunc))
                    .containsExactlyElementsOf(nodes.getStore().listKeys());
        }
    }

    @Test
    void aListAnsweredInPagesIsReadToItsLastPage() {
        start(false);
        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE)
                .andReturn(200, new PodListBuilder().withNewMetadata().withContinue("page 2").endMetadata()
                        .withItems(pod("a", "first")).build()).once();
        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE + "&continue=page+2")
                .andReturn(200, new PodListBuilder().withNewMetadata().endMetadata().withItems(pod("b", "second")).build()).once();

        assertThat(keys(MetadataLists.of(client, PODS))).containsExactly("a/first", "b/second");
    }

    @Test
    void aServerThatAnswersEveryPageWithTheSameTokenIsGivenUpOnRatherThanAskedForEver() {
        start(false);
        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE)
                .andReturn(200, new PodListBuilder().withNewMetadata().withContinue("again").endMetadata().withItems(pod("a", "first")).build()).once();
        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE + "&continue=again")
                .andReturn(200, new PodListBuilder().withNewMetadata().withContinue("again").endMetadata().withItems(pod("a", "first")).build()).always();

        assertThat(catchThrowableOfType(() -> MetadataLists.of(client, PODS), KubernetesClientException.class))
                .hasMessageContaining("same continue token");
    }

    @Test
    void aRefusalKeepsTheServersCodeAndAnUnreadableAnswerSaysWhatWasAsked() {
        start(false);
        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE).andReturn(403, "{\"kind\":\"Status\",\"message\":\"pods is forbidden\"}").once();
        KubernetesClientException refused = catchThrowableOfType(() -> MetadataLists.of(client, PODS), KubernetesClientException.class);
        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused).hasMessageContaining("pods is forbidden");

        server.expect().get().withPath("/api/v1/pods?limit=" + MetadataLists.PAGE).andReturn(200, "{\"items\": [{\"metadata\": {}}]}").once();
        assertThat(catchThrowableOfType(() -> MetadataLists.of(client, PODS), KubernetesClientException.class))
                .hasMessageContaining("/api/v1/pods").hasMessageContaining("no name");
    }

    /** A page whose shape is wrong is refused whole: read leniently, it listed fewer objects than the server holds. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"items\": [1, 2]}",
            "{\"items\": [{\"metadata\": {\"name\": \"a\"}}, \"x\", {\"metadata\": {\"name\": \"b\"}}]}",
            "{\"items\": {\"metadata\": {\"name\": \"a\"}}}",
            "{\"items\": [{\"metadata\": {\"name\": {\"first\": \"a\"}, \"namespace\": \"n\"}}]}",
            "{\"items\": [{\"metadata\": {\"name\": \"a\", \"namespace\": 7}}]}",
            "{\"items\": [{\"metadata\": [\"a\"]}]}",
            "{\"metadata\": \"next\", \"items\": []}",
            "{\"metadata\": {\"continue\": [\"t\"]}, \"items\": []}",
            "[{\"metadata\": {\"name\": \"a\"}}]"})
    void aPageOfTheWrongShapeIsAnErrorNamingWhatIsWrongRatherThanAShorterList(String page) {
        List<HasMetadata> objects = new java.util.ArrayList<>();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> MetadataLists.page(page.getBytes(java.nio.charset.StandardCharsets.UTF_8), objects)))
                .isInstanceOf(java.io.IOException.class).hasMessageMatching(".*(is not|no name).*");
    }

    @Test
    void nullsWhereAServerMayLeaveAValueOutReadAsAbsent() throws Exception {
        List<HasMetadata> objects = new java.util.ArrayList<>();
        String next = MetadataLists.page(("{\"metadata\": {\"continue\": null}, \"items\": [{\"metadata\": {\"name\": \"a\", \"namespace\": null}},"
                + " {\"metadata\": {\"name\": \"b\", \"namespace\": \"n\"}}]}").getBytes(java.nio.charset.StandardCharsets.UTF_8), objects);
        assertThat(next).isNull();
        assertThat(keys(objects)).containsExactly("n/b", "null/a");
        assertThat(MetadataLists.page("{\"items\": null}".getBytes(java.nio.charset.StandardCharsets.UTF_8), objects)).isNull();
    }
}
