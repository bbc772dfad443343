package dev.muster.statussync.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.PyTorchJob;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.statussync.core.fleet.FleetWrite;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

/** A job's Events on the fleet API as a user lists them: a repeat counted on its series, each occurrence once. */
class JobEventsTest {

    private static final Instant FIRST = Instant.parse("2026-12-05T10:00:00.123456789Z");
    private static final String REFUSED = "no member cluster can take the whole gang now: gpu-a: no node has 8 nvidia.com/gpu free";

    @TempDir
    static Path folder;
    private static FleetApiServer server;
    private static KubernetesClient fleet;

    @BeforeAll
    static void startFleet() throws Exception {
        server = FleetApiServer.start(folder);
        fleet = server.connect();
    }

    @AfterAll
    static void stopFleet() {
        fleet.close();
        server.close();
    }

    private static JobRef submit(String name) {
        PyTorchJob created = fleet.resources(PyTorchJob.class).inNamespace("default").resource(Seed.job("default", name)).create();
        return new JobRef("default", name, created.getMetadata().getUid());
    }

    private static FleetWrite.RecordEvent refused(JobRef job, String message, Instant time) {
        return new FleetWrite.RecordEvent(job, "event-" + time, "Warning", "PlacementFailed", message, "muster", time);
    }

    private static List<Event> eventsOf(JobRef job) {
        return fleet.v1().events().inNamespace(job.namespace()).list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(job.name())).toList();
    }

    @Test
    void aRepeatIsCountedOnItsSeriesInOneRequestAndAnotherMessageIsAnEventOfItsOwn() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("refused-again");
        writer.write(refused(job, REFUSED, FIRST));
        int before = server.requestCount();

        writer.write(refused(job, REFUSED, FIRST.plusSeconds(30)));
        writer.write(refused(job, REFUSED, FIRST.plusSeconds(90)));

        assertThat(server.requestCount() - before).as("requests for two repeats").isEqualTo(2);
        assertThat(eventsOf(job)).singleElement().satisfies(series -> {
            assertThat(series.getCount()).isEqualTo(3);
            assertThat(series.getFirstTimestamp()).isEqualTo(FIRST.toString());
            assertThat(series.getLastTimestamp()).isEqualTo(FIRST.plusSeconds(90).toString());
            assertThat(series.getType()).isEqualTo("Warning");
        });

        writer.write(refused(job, "no member cluster can take the whole gang now: gpu-a: excluded", FIRST.plusSeconds(120)));
        assertThat(eventsOf(job)).hasSize(2);
    }

    /** After a restart the same decisions are read again: none is counted twice, by this writer or a new one. */
    @Test
    void anOccurrenceReadAgainIsNotCountedAgain() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("read-again");
        writer.write(refused(job, REFUSED, FIRST));
        writer.write(refused(job, REFUSED, FIRST.plusNanos(1)));

        writer.write(refused(job, REFUSED, FIRST.plusNanos(1)));
        FleetWriter restarted = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        restarted.write(refused(job, REFUSED, FIRST));
        restarted.write(refused(job, REFUSED, FIRST.plusNanos(1)));

        assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(2);

        restarted.write(refused(job, REFUSED, FIRST.plusSeconds(5)));
        assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(3);
    }

    /** Events expire on a real API server: a series gone is begun again; one changed by another writer is counted over. */
    @Test
    void aSeriesGoneIsBegunAgainAndOneChangedSinceIsCountedOverWhatIsThere() {
        FleetWriter writer = new FleetWriter(fleet, new ConfigOutcomeWriter(fleet));
        JobRef job = submit("series-gone");
        writer.write(refused(job, REFUSED, FIRST));

        Event series = eventsOf(job).get(0);
        series.setCount(7);
        fleet.v1().events().inNamespace("default").resource(series).update();
        writer.write(refused(job, REFUSED, FIRST.plusSeconds(10)));
        assertThat(eventsOf(job)).singleElement().extracting(Event::getCount).isEqualTo(8);

        fleet.v1().events().inNamespace("default").withName(series.getMetadata().getName()).delete();
        writer.write(refused(job, REFUSED, FIRST.plusSeconds(20)));
        assertThat(eventsOf(job)).singleElement().satisfies(begun -> {
            assertThat(begun.getCount()).isEqualTo(1);
            assertThat(begun.getFirstTimestamp()).isEqualTo(FIRST.plusSeconds(20).toString());
        });
    }
}
