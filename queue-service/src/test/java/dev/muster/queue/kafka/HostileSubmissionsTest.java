package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.Topics;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.testing.hostile.HostileSubmission;
import dev.muster.testing.hostile.HostileSubmissions;
import dev.muster.testing.hostile.Verdict;
import dev.muster.testing.seed.Seed;

/**
 * Hostile submissions on the Kafka path, through the queue service's own reading of its inputs and its real core: the
 * corpus's cases and {@value #DEFAULT_GENERATED} generated ones (set {@code -Dmuster.test.hostile-cases} for more, and
 * {@code -Dmuster.test.hostile-seed} for another seed), with a good job after every tenth. Each hostile case must get a
 * specific error (a dead letter with its reason, or the job's rejection; the corpus's cases the error they name), or be
 * a job that is valid after all and admitted; the core must never fail on one, nothing may go unanswered or stall, and
 * every good job must be admitted. Prints the counts.
 */
class HostileSubmissionsTest {

    private static final int DEFAULT_GENERATED = 10_000;
    private static final int GENERATED = Integer.getInteger("muster.test.hostile-cases", DEFAULT_GENERATED);
    private static final long SEED = Long.getLong("muster.test.hostile-seed", 20261202L);
    /** A case that takes longer than this stalls the consumer: a liveness bound, not a speed target. */
    private static final Duration STALL = Duration.ofSeconds(5);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T00:00:00Z"), ZoneOffset.UTC);

    private final FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), CLOCK);
    private final EventProcessor processor = QueueServiceBeans.inputProcessor(queue::handle, () -> {
        queue.drainState();
        return List.of();
    }, queue::refuseUnreadable, CLOCK);
    private final HostileSubmissions hostile = new HostileSubmissions("default");
    private long offset;

    @Test
    void everyHostileSubmissionGetsASpecificErrorAndTheGoodJobsBetweenThemAreAdmitted() throws Exception {
        PropagationPolicy policy = Manifests.read(Seed.text(Seed.POLICY_GANG), PropagationPolicy.class);
        process(Topics.FLEET_CONFIG, "PropagationPolicy/default/" + policy.getMetadata().getName(),
                EventSerde.serialize(ConfigEvent.create("/test", CLOCK.instant(), new PolicyApplied(policy))));
        List<HostileSubmission> corpus = hostile.corpus();
        Iterator<HostileSubmission> cases = java.util.stream.Stream.concat(corpus.stream(), hostile.generated(SEED, GENERATED)).iterator();

        Map<String, Integer> counts = new TreeMap<>();
        List<String> mishandled = new ArrayList<>();
        int goodSent = 0;
        List<String> goodLost = new ArrayList<>();
        for (int i = 0; cases.hasNext(); i++) {
            if (i % 10 == 0) {
                JobEvent good = hostile.good("good-" + goodSent++);
                if (decisions(process(Topics.SUBMISSIONS, good.key(), EventSerde.serialize(good))).stream()
                        .noneMatch(event -> event.job().equals(good.job()) && event.data() instanceof JobAdmitted)) {
                    goodLost.add(good.job().toString());
                }
            }
            HostileSubmission hostileCase = cases.next();
            Verdict verdict = judge(hostileCase);
            counts.merge(verdict.kind(), 1, Integer::sum);
            verdict.problem().ifPresent(problem -> mishandled.add(hostileCase.name() + " -> " + problem));
        }

        System.out.printf("hostile submissions (Kafka path, seed %d): %d cases, %d from the corpus and %d generated; %s; good jobs admitted %d/%d%n",
                SEED, corpus.size() + GENERATED, corpus.size(), GENERATED, counts, goodSent - goodLost.size(), goodSent);
        mishandled.stream().limit(30).forEach(line -> System.out.println("  mishandled: " + line));
        assertThat(mishandled).as("hostile cases mishandled").isEmpty();
        assertThat(goodLost).as("good jobs not admitted").isEmpty();
    }

    private Verdict judge(HostileSubmission hostileCase) {
        long start = System.nanoTime();
        List<Produced> produced;
        try {
            produced = process(Topics.SUBMISSIONS, hostileCase.key(), hostileCase.value());
        } catch (RuntimeException | Error e) {
            return Verdict.mishandled("threw " + e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        if (took.compareTo(STALL) > 0) {
            return Verdict.mishandled("took " + took.toMillis() + " ms");
        }
        List<String> errors = new ArrayList<>();
        produced.stream().filter(record -> Topics.DEAD_LETTER.equals(record.topic()))
                .map(record -> MusterJson.fromBytes(record.value(), DeadLetter.class).reason()).forEach(errors::add);
        List<JobEvent> decisions = decisions(produced);
        decisions.stream().filter(event -> event.data() instanceof JobRejected).flatMap(event -> ((JobRejected) event.data()).reasons().stream())
                .forEach(errors::add);
        if (errors.stream().anyMatch(error -> error.startsWith("processing "))) {
            return Verdict.mishandled("the core failed on it: " + errors);
        }
        if (errors.stream().anyMatch(String::isBlank)) {
            return Verdict.mishandled("an error without a reason");
        }
        if (!errors.isEmpty() && hostileCase.accepted()) {
            return Verdict.mishandled("refused, where the corpus says it is a valid job: " + errors);
        }
        if (!errors.isEmpty()) {
            Optional<String> expected = hostileCase.expect();
            if (expected.isPresent() && errors.stream().noneMatch(error -> error.contains(expected.get()))) {
                return Verdict.mishandled("its errors " + errors + " do not say \"" + expected.get() + "\"");
            }
            return Verdict.handled(produced.stream().anyMatch(record -> Topics.DEAD_LETTER.equals(record.topic())) ? "dead-lettered" : "rejected");
        }
        if (decisions.stream().anyMatch(event -> event.data() instanceof JobAdmitted || event.data() instanceof JobQueued)) {
            return hostileCase.expect().isPresent() ? Verdict.mishandled("accepted, where the corpus expects \"" + hostileCase.expect().get() + "\"")
                    : Verdict.handled("valid after all, admitted");
        }
        return Verdict.mishandled("no answer: neither an error nor a decision (" + produced.size() + " records)");
    }

    private List<Produced> process(String topic, String key, byte[] value) {
        // With a timestamp, as every record read from Kafka has one.
        return processor.process(new Consumed(topic, 0, offset, key, value, null, java.time.Instant.ofEpochSecond(1_764_800_000L + offset++)));
    }

    private static List<JobEvent> decisions(List<Produced> produced) {
        List<JobEvent> events = new ArrayList<>();
        for (Produced record : produced) {
            if (Topics.ADMISSIONS.equals(record.topic())) {
                try {
                    MusterEvent event = EventSerde.deserialize(record.value());
                    if (event instanceof JobEvent job) {
                        events.add(job);
                    }
                } catch (MalformedEventException e) {
                    throw new AssertionError("the queue wrote an event it cannot read back: " + new String(record.value(), StandardCharsets.UTF_8), e);
                }
            }
        }
        return events;
    }
}
