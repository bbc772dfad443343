package dev.muster.queue.core.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PriorityClassApplied;
import dev.muster.model.event.PriorityClassDeleted;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.quota.QuotaSettings;

/** A job's priority comes from the PriorityClass it names, as on Kubernetes: resolved when it is submitted, refused when none exists. */
class PriorityClassesTest {

    private static final Instant T0 = Instant.parse("2026-11-29T17:00:00Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    private FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), CLOCK);
    private final Map<String, byte[]> stateTopic = new LinkedHashMap<>();

    @BeforeEach
    void seedTreeAndPolicy() {
        handle(FleetQueueTest.seedTree());
        handle(FleetQueueTest.policy("propagation-policy-gang-queue.yaml"));
        // The seed's child-2 admits one job at a time: the rest wait, in priority order.
        handle(submitted("running", null, 0, "/test", null));
    }

    private List<MusterEvent> handle(MusterEvent event) {
        List<MusterEvent> out = queue.handle(event);
        queue.drainState().forEach(entry -> {
            if (entry.value() == null) {
                stateTopic.remove(entry.key());
            } else {
                stateTopic.put(entry.key(), entry.value());
            }
        });
        return out;
    }

    private static ConfigEvent priorityClass(String name, int value, boolean globalDefault) {
        return ConfigEvent.create("/test", T0, new PriorityClassApplied(name, value, globalDefault));
    }

    private static JobEvent submitted(String name, String priorityClass, int second, String source, Integer resolved) {
        PyTorchJob job = priorityClass == null ? dev.muster.testing.seed.Seed.job("default", name)
                : dev.muster.testing.seed.Seed.job("default", name, priorityClass);
        return JobEvent.create(source, new JobRef("default", name, name + "-uid"), T0.plusSeconds(second), new JobSubmitted(job, resolved));
    }

    @Test
    void aJobNamingAClassThatDoesNotExistIsRefusedAndOneCreatedLaterIsHonoured() {
        assertThatThrownBy(() -> handle(submitted("urgent", "high", 1, "/test", null)))
                .isInstanceOfSatisfying(RejectedEventException.class, rejected -> assertThat(rejected.reasons())
                        .containsExactly("spec.runPolicy.schedulingPolicy.priorityClass: no PriorityClass with name high was found"));

        handle(priorityClass("high", 1000, false));
        handle(submitted("ordinary", null, 2, "/test", null));
        List<MusterEvent> urgent = handle(submitted("urgent-2", "high", 3, "/test", null));

        assertThat(urgent).filteredOn(JobEvent.class::isInstance).map(event -> ((JobEvent) event).data())
                .filteredOn(JobQueued.class::isInstance).singleElement().satisfies(queued -> {
                    assertThat(((JobQueued) queued).priority()).isEqualTo(1000);
                    assertThat(((JobQueued) queued).priorityClass()).isEqualTo("high");
                });
        assertThat(queue.quota().queue("child-2")).extracting(job -> job.name()).as("the higher class goes first").containsExactly("urgent-2", "ordinary");
    }

    @Test
    void aJobNamingNoClassTakesTheGlobalDefault() {
        handle(priorityClass("batch", -10, true));
        handle(submitted("first", null, 1, "/test", null));
        handle(submitted("second", "system-cluster-critical", 2, "/test", null));

        assertThat(queue.quota().queue("child-2")).extracting(job -> job.name() + "=" + job.priority())
                .containsExactly("second=2000000000", "first=-10");
    }

    @Test
    void theFleetApiResolvedPriorityIsTakenOnlyFromTheFleetApisIngress() {
        // Created on the fleet API right after its class, before the queue read the class: the value resolved there holds.
        handle(submitted("from-kubectl", "fresh", 1, FleetJobs.INGRESS_SOURCE, 500));
        // A producer cannot give itself a priority: it names a class, and the queue resolves it.
        assertThatThrownBy(() -> handle(submitted("from-kafka", "fresh", 2, "/producer", 999_999)))
                .isInstanceOf(RejectedEventException.class);

        assertThat(queue.quota().queue("child-2")).extracting(job -> job.name() + "=" + job.priority()).containsExactly("from-kubectl=500");
    }

    @Test
    void classesSurviveARestartAndADeletedOneRefusesNewJobsWhileQueuedOnesKeepTheirPriority() {
        handle(priorityClass("high", 1000, false));
        handle(submitted("queued-high", "high", 1, "/test", null));
        handle(ConfigEvent.create("/test", T0, new PriorityClassApplied("low", 1, false)));
        queue = FleetQueue.restore(QuotaSettings.defaults(), CLOCK, stateTopic.entrySet().stream()
                .map(entry -> new Entry(entry.getKey(), entry.getValue())).toList());

        handle(submitted("queued-low", "low", 2, "/test", null));
        handle(ConfigEvent.create("/test", T0, new PriorityClassDeleted("high")));

        assertThatThrownBy(() -> handle(submitted("late-high", "high", 3, "/test", null))).isInstanceOf(RejectedEventException.class);
        assertThat(queue.quota().queue("child-2")).extracting(job -> job.name() + "=" + job.priority())
                .containsExactly("queued-high=1000", "queued-low=1");
        assertThat(handle(FleetQueueTest.finished("running"))).filteredOn(JobEvent.class::isInstance).map(event -> (JobEvent) event)
                .filteredOn(event -> event.data() instanceof dev.muster.model.event.JobAdmitted).extracting(event -> event.job().name())
                .as("the deleted class's job still goes first").containsExactly("queued-high");
    }
}
