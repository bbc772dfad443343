package dev.muster.queue.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaTree.Node;

/** Invariants of quota admission over random valid trees and random streams of jobs. */
class QuotaAdmissionProperties {

    /** One step of a stream: submit a job, release or give back an earlier one, a preempted job's pods end, or time passes. */
    sealed interface Step {
    }

    record Submit(int leaf, int cpu, int gpu, int priority) implements Step {
    }

    record Release(int job) implements Step {
    }

    record GiveBack(int job) implements Step {
    }

    record Wait(int minutes) implements Step {
    }

    /** The pods of one of the jobs being preempted or withdrawn have terminated on its member, and placement says so. */
    record Stop(int job) implements Step {
    }

    /** The owner deletes an earlier job: a waiting one leaves, an admitted one is stopped first. */
    record Delete(int job) implements Step {
    }

    /**
     * @param fairSharing   whether borrowing siblings are served by dominant share (the default) or by priority then submission
     * @param fairPreemption whether, under fair sharing, a borrower below its share may preempt borrowers above theirs
     */
    record Scenario(String treeYaml, List<Step> steps, boolean strict, boolean reclaimNever, boolean fairSharing, boolean fairPreemption) {

        Scenario(String treeYaml, List<Step> steps, boolean strict, boolean reclaimNever, boolean fairSharing) {
            this(treeYaml, steps, strict, reclaimNever, fairSharing, false);
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<String> trees = trees(64, 16, 1, 6);
        Arbitrary<Step> steps = Arbitraries.frequencyOf(
                Tuple.of(5, Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 24),
                        Arbitraries.integers().between(0, 6), Arbitraries.integers().between(-1, 2)).as(Submit::new)),
                Tuple.of(3, Arbitraries.integers().between(0, 40).map(Release::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 40).map(GiveBack::new)),
                Tuple.of(1, Arbitraries.integers().between(1, 15).map(Wait::new)),
                Tuple.of(2, Arbitraries.integers().between(0, 40).map(Stop::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 40).map(Delete::new)));
        return Combinators.combine(trees, steps.list().ofMinSize(5).ofMaxSize(60), Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false)).as((tree, list, strict, never, fair, preempts) ->
                new Scenario(tree, list, strict, never, fair, fair && preempts));
    }

    /**
     * Many jobs of few shapes, and time enough for them to starve: each starving job holds capacity in turn, and an
     * evaluation keeps its verdicts per leaf and demand across those holds.
     */
    @Provide
    Arbitrary<Scenario> starvingScenarios() {
        Arbitrary<String> trees = trees(32, 8, 2, 8);
        Arbitrary<Step> steps = Arbitraries.frequencyOf(
                Tuple.of(8, Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.of(1, 2, 4),
                        Arbitraries.of(0, 1, 2), Arbitraries.integers().between(0, 1)).as(Submit::new)),
                Tuple.of(2, Arbitraries.integers().between(0, 60).map(Release::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 60).map(GiveBack::new)),
                Tuple.of(2, Arbitraries.integers().between(3, 12).map(Wait::new)),
                Tuple.of(2, Arbitraries.integers().between(0, 60).map(Stop::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 60).map(Delete::new)));
        return Combinators.combine(trees, steps.list().ofMinSize(20).ofMaxSize(90), Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.of(true, false)).as((tree, list, strict, never, fair) -> new Scenario(tree, list, strict, never, fair));
    }

    /** Valid trees ({@link #treeYaml}) up to this root capacity, with each leaf's job count between the two given. */
    private static Arbitrary<String> trees(int rootCpu, int rootGpu, int leastJobs, int mostJobs) {
        return Combinators.combine(
                Arbitraries.integers().between(4, rootCpu),
                Arbitraries.integers().between(2, rootGpu),
                Arbitraries.integers().between(2, 3),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(leastJobs, mostJobs),
                Arbitraries.of(true, false)).as(QuotaAdmissionProperties::treeYaml);
    }

    /**
     * A valid three-level tree: children's max within the parent's, children's min summing within the parent's,
     * each leaf binding its own namespace.
     */
    static String treeYaml(int rootCpu, int rootGpu, int children, int grandchildren, int maxJobs, boolean withMin) {
        StringBuilder root = new StringBuilder("name: root\nmax: {cpu: %d, nvidia.com/gpu: %d}\n".formatted(rootCpu, rootGpu));
        if (withMin) {
            root.append("min: {cpu: %d, nvidia.com/gpu: %d}\n".formatted(rootCpu, rootGpu));
        }
        root.append("children:\n");
        for (int c = 0; c < children; c++) {
            int cpu = Math.max(1, rootCpu * (c + 2) / (children + 2));
            int gpu = Math.max(1, rootGpu * (c + 2) / (children + 2));
            String min = withMin ? ", min: {cpu: %d, nvidia.com/gpu: %d}".formatted(rootCpu / children, rootGpu / children) : "";
            if (grandchildren == 0) {
                root.append("- {name: n%d, max: {cpu: %d, nvidia.com/gpu: %d, kube-queue/max-jobs: %d}%s, namespaces: [ns%d]}\n"
                        .formatted(c, cpu, gpu, maxJobs, min, c));
            } else {
                root.append("- name: n%d\n  max: {cpu: %d, nvidia.com/gpu: %d}\n".formatted(c, cpu, gpu));
                if (withMin) {
                    root.append("  min: {cpu: %d, nvidia.com/gpu: %d}\n".formatted(rootCpu / children, rootGpu / children));
                }
                root.append("  children:\n");
                for (int g = 0; g < grandchildren; g++) {
                    int leafCpu = Math.max(1, cpu / 2 + g);
                    String leafMin = withMin ? ", min: {cpu: %d}".formatted(Math.min(leafCpu, rootCpu / children / grandchildren)) : "";
                    root.append("  - {name: n%d-%d, max: {cpu: %d, kube-queue/max-jobs: %d}%s, namespaces: [ns%d-%d]}\n"
                            .formatted(c, g, leafCpu, maxJobs, leafMin, c, g));
                }
            }
        }
        return root.toString();
    }

    static final class Run {

        QuotaAdmission quota;
        final QuotaTree tree;
        final QuotaSettings settings;
        /** What a service would have persisted: each changed standing, removed when the job is gone. */
        final Map<String, JobStanding> persisted = new LinkedHashMap<>();
        final List<List<QuotaDecision>> decisionsPerStep = new ArrayList<>();
        final List<QuotaJob> submitted = new ArrayList<>();
        final Set<String> released = new HashSet<>();
        /** Jobs their owner deleted while they waited: rightly never admitted. */
        final Set<String> deletedWhileWaiting = new HashSet<>();
        final Set<String> everAdmitted = new HashSet<>();
        /**
         * The jobs whose pods hold capacity on a member, as a member would see them: admitted ones, and preempted ones
         * until their pods have terminated. Kept from the decisions alone, apart from the core's own bookkeeping.
         */
        final Set<String> onMembers = new java.util.LinkedHashSet<>();
        /** The jobs preempted and not stopped yet, in the order preempted. */
        final List<String> stopping = new ArrayList<>();
        Instant now = QuotaFixtures.T0;
        /** Steps a pass waits for: 1 for a pass after every change, as the core runs by default. */
        final int batch;
        private int stepsInBatch;

        Run(Scenario scenario) {
            this(scenario, true);
        }

        /** @param reuse false for a core that works out every waiting job's verdict, and the fair order, afresh */
        Run(Scenario scenario, boolean reuse) {
            this(scenario, reuse, 1);
        }

        /** @param batch how many steps make a batch, at whose end the one pass they owe runs (see {@link QuotaAdmission#deferPasses}) */
        Run(Scenario scenario, boolean reuse, int batch) {
            this.batch = batch;
            List<String> annotations = new ArrayList<>();
            if (scenario.reclaimNever()) {
                annotations.add(ReclaimPolicy.ANNOTATION + ": Never");
            }
            if (!scenario.fairSharing()) {
                annotations.add(FairSharing.ANNOTATION + ": Disabled");
            }
            if (scenario.fairPreemption()) {
                annotations.add(FairSharing.PREEMPTION_ANNOTATION + ": " + FairSharing.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE);
            }
            tree = QuotaFixtures.tree(String.join(", ", annotations), scenario.treeYaml());
            Set<String> strict = scenario.strict() ? Set.of(leaves().get(0).name()) : Set.of();
            settings = new QuotaSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), strict);
            quota = new QuotaAdmission(tree, settings, reuse);
            deferIfBatched();
        }

        /**
         * From now on the core is one that only decides whom it admits and preempts, as the start-time estimate's copy,
         * checking whether a pass may stop once this many jobs have been considered, then at each doubling (0: after each).
         */
        Run decidingAdmissionsOnly(int firstPassEndCheck) {
            assertThat(decisionsPerStep).as("steps before the core is replaced").isEmpty();
            quota = QuotaAdmission.restoreToDecideAdmissionsOnly(tree, settings, List.of()).checkingForAPassEndFrom(firstPassEndCheck);
            deferIfBatched();
            return this;
        }

        /**
         * From now on the core is one whose passes stop once none of the jobs left can be admitted, within this refresh of
         * a pass that told every waiting job why it waits, checking whether they may stop once this many jobs have been
         * considered, then at each doubling (0: after each).
         */
        Run lettingReasonsLag(Duration refresh, int firstPassEndCheck) {
            assertThat(decisionsPerStep).as("steps before the core is replaced").isEmpty();
            quota = new QuotaAdmission(tree, new QuotaSettings(settings.starvationAge(), settings.giveBackBackoff(), settings.strictFifoLeaves(),
                    refresh), true).checkingForAPassEndFrom(firstPassEndCheck);
            deferIfBatched();
            return this;
        }

        private void deferIfBatched() {
            if (batch > 1) {
                quota.deferPasses();
            }
        }

        /** A crash and restart: a new core restored from the persisted standings alone (a service restarts between batches). */
        void restart() {
            assertThat(stepsInBatch).as("a restart within a batch").isZero();
            quota = QuotaAdmission.restore(tree, settings, persisted.values());
            deferIfBatched();
        }

        void persistChanges() {
            for (String uid : quota.drainChanges()) {
                quota.standing(uid).ifPresentOrElse(standing -> persisted.put(uid, standing), () -> persisted.remove(uid));
            }
        }

        List<Node> leaves() {
            return tree.nodes().stream().filter(Node::isLeaf).toList();
        }

        void apply(Step step) {
            List<QuotaDecision> decisions;
            if (step instanceof Submit submit) {
                Node leaf = leaves().get(submit.leaf() % leaves().size());
                String namespace = leaf.namespaces().iterator().next();
                QuotaJob job = new QuotaJob("job-" + submitted.size(), namespace, "job-" + submitted.size(),
                        ResourceList.parse(Map.of("cpu", String.valueOf(submit.cpu()), "nvidia.com/gpu", String.valueOf(submit.gpu()))),
                        submit.priority(), now, submitted.size());
                submitted.add(job);
                decisions = quota.submit(job, now);
            } else if (step instanceof Release release) {
                decisions = live(release.job()).map(job -> {
                    released.add(job.uid());
                    onMembers.remove(job.uid());
                    stopping.remove(job.uid());
                    if (quota.isWaiting(job.uid())) {
                        deletedWhileWaiting.add(job.uid());
                    }
                    return quota.release(job.uid(), now);
                }).orElse(List.of());
            } else if (step instanceof GiveBack giveBack) {
                decisions = live(giveBack.job()).map(job -> {
                    // A job given back holds nothing on any member.
                    onMembers.remove(job.uid());
                    stopping.remove(job.uid());
                    return quota.giveBack(job.uid(), now);
                }).orElse(List.of());
            } else if (step instanceof Delete delete) {
                decisions = live(delete.job()).map(job -> {
                    released.add(job.uid());
                    if (quota.withdraw(job.uid())) {
                        if (!stopping.contains(job.uid())) {
                            stopping.add(job.uid());
                        }
                        return List.<QuotaDecision>of();
                    }
                    if (quota.isWaiting(job.uid())) {
                        deletedWhileWaiting.add(job.uid());
                    }
                    return quota.release(job.uid(), now);
                }).orElse(List.of());
            } else if (step instanceof Stop stop) {
                if (stopping.isEmpty()) {
                    decisions = List.of();
                } else {
                    String uid = stopping.remove(stop.job() % stopping.size());
                    onMembers.remove(uid);
                    decisions = quota.stopped(uid, now);
                }
            } else {
                now = now.plus(Duration.ofMinutes(((Wait) step).minutes()));
                decisions = quota.reevaluate(now);
            }
            if (batch > 1) {
                // Only a reclaimer whose last victim stopped is decided at once (what the victims freed is its own); no pass runs.
                assertThat(decisions).as("a deferred pass decided at %s", step).noneMatch(QuotaDecision.Waiting.class::isInstance);
                if (++stepsInBatch == batch) {
                    stepsInBatch = 0;
                    decisions = new ArrayList<>(decisions);
                    decisions.addAll(quota.flush(now));
                }
            }
            for (QuotaDecision decision : decisions) {
                String uid = decision.job().uid();
                if (decision instanceof Admitted) {
                    assertThat(onMembers).as("%s admitted while its pods still run", decision.job().ref()).doesNotContain(uid);
                    everAdmitted.add(uid);
                    onMembers.add(uid);
                } else if (decision instanceof QuotaDecision.Preempted) {
                    assertThat(onMembers).as("%s preempted while not running", decision.job().ref()).contains(uid);
                    assertThat(stopping).as("%s preempted twice", decision.job().ref()).doesNotContain(uid);
                    stopping.add(uid);
                }
            }
            decisionsPerStep.add(decisions);
            persistChanges();
        }

        java.util.Optional<QuotaJob> live(int index) {
            if (submitted.isEmpty()) {
                return java.util.Optional.empty();
            }
            QuotaJob job = submitted.get(index % submitted.size());
            return released.contains(job.uid()) ? java.util.Optional.empty() : java.util.Optional.of(job);
        }

        void assertInvariants() {
            // What the members hold, terminating pods of preempted jobs included, never exceeds any max.
            Map<String, ResourceList> physical = new LinkedHashMap<>();
            for (String uid : onMembers) {
                QuotaJob job = submitted.stream().filter(candidate -> candidate.uid().equals(uid)).findFirst().orElseThrow();
                tree.pathToRoot(tree.leafFor(job.namespace()).orElseThrow()).forEach(node -> physical.merge(node.name(), job.charge(), ResourceList::plus));
            }
            for (Node node : tree.nodes()) {
                ResourceList held = physical.getOrDefault(node.name(), ResourceList.empty());
                assertThat(held.exceeding(node.max())).as("members over max at %s: %s > %s", node.pathText(), held, node.max()).isEmpty();
            }
            Map<String, ResourceList> expected = new LinkedHashMap<>();
            for (QuotaJob job : quota.admittedJobs()) {
                Node leaf = tree.leafFor(job.namespace()).orElseThrow();
                tree.pathToRoot(leaf).forEach(node -> expected.merge(node.name(), job.charge(), ResourceList::plus));
            }
            for (Node node : tree.nodes()) {
                ResourceList usage = quota.usage(node.name());
                assertThat(usage.exceeding(node.max())).as("over max at %s: %s > %s", node.pathText(), usage, node.max()).isEmpty();
                assertThat(usage).as("usage of %s is the sum of its admitted jobs", node.pathText())
                        .isEqualTo(expected.getOrDefault(node.name(), ResourceList.empty()).plus(zeroLike(usage)));
            }
            for (QuotaJob job : submitted) {
                boolean admitted = quota.isAdmitted(job.uid());
                boolean waiting = quota.isWaiting(job.uid());
                assertThat(admitted && waiting).as("%s both admitted and waiting", job.ref()).isFalse();
                assertThat(admitted || waiting || released.contains(job.uid())).as("%s lost", job.ref()).isTrue();
            }
        }

        /** Released jobs leave zero amounts behind in usage; equality of lists compares the names too. */
        private static ResourceList zeroLike(ResourceList usage) {
            ResourceList zeros = ResourceList.empty();
            for (String name : usage.names()) {
                zeros = zeros.with(name, BigDecimal.ZERO);
            }
            return zeros;
        }
    }

    @Property(tries = 300)
    void noNodeIsEverOverAdmittedAndNoJobIsLost(@ForAll("scenarios") Scenario scenario) {
        Run run = new Run(scenario);
        for (Step step : scenario.steps()) {
            run.apply(step);
            run.assertInvariants();
        }
    }

    /**
     * Teams that each may use the whole root but are guaranteed only their share: borrowing and reclaiming all the
     * time. What the members hold, counting the pods of preempted jobs until they have terminated, stays within every
     * max; no job runs twice, is preempted twice, or is lost.
     */
    @Property(tries = 300)
    void whileReclaimsAreCarriedOutNothingOnTheMembersIsEverAboveAnyMax(@ForAll("reclaimScenarios") Scenario scenario) {
        Run run = new Run(scenario);
        for (Step step : scenario.steps()) {
            run.apply(step);
            run.assertInvariants();
        }
        boolean reclaimed = run.decisionsPerStep.stream().flatMap(List::stream).anyMatch(QuotaDecision.Preempted.class::isInstance);
        net.jqwik.api.statistics.Statistics.label("reclaims").collect(reclaimed);
        net.jqwik.api.statistics.Statistics.label("reclaims").coverage(coverage -> coverage.check(true).percentage(share -> share >= 30));
    }

    /**
     * What a victim frees is its reclaimer's: no job is preempted twice for one reclaimer unless that reclaimer ran in
     * between. Were a stopped victim admitted again before its reclaimer, the reclaimer would take it back again, and
     * the two would go round.
     */
    @Property(tries = 300)
    void aVictimIsPreemptedForAReclaimerOnceForEachTimeTheReclaimerRuns(@ForAll("reclaimScenarios") Scenario scenario) {
        preemptsAVictimOnceForEachTimeItsReclaimerRuns(scenario);
    }

    /**
     * Found by the property above: ns1/job-12 reclaims ns0/job-3 and the one GPU free; ns1/job-15, choosing its victims
     * against what was used then, counted on that free GPU too and took only ns0/job-5. Once both victims were given back
     * job-15 did not fit, lost its hold, and job-5 was admitted again into the GPU free, only to be preempted again.
     */
    @net.jqwik.api.Example
    void aSecondReclaimerDoesNotCountOnWhatTheFirstWillTake() {
        List<Step> steps = new ArrayList<>();
        for (int gpus : new int[] {1, 1, 2}) {
            steps.add(new Submit(0, 0, gpus, 0));
        }
        steps.add(new Submit(0, 0, 1, -1));
        for (int gpus : new int[] {2, 1, 2, 2, 2, 2, 2, 2}) {
            steps.add(new Submit(0, 0, gpus, 0));
        }
        steps.addAll(List.of(new Submit(1, 0, 2, 0), new Submit(0, 0, 1, 0), new Submit(0, 0, 1, 0), new Submit(1, 0, 2, 0),
                new GiveBack(3), new GiveBack(5)));
        preemptsAVictimOnceForEachTimeItsReclaimerRuns(new Scenario(reclaimTreeYaml(9, 2), steps, false, false, true, true));
    }

    /**
     * Found by the property above: ns0/job-8 reclaims ns1/job-7, then is admitted into capacity freed elsewhere while job-7
     * still stops; ns2/job-20 takes job-8 back counting on what job-7 frees. Had job-20 not waited for job-7 too, it would
     * have lost its hold once job-8 was given back, and job-8 would have been admitted again, only to be preempted again.
     */
    @net.jqwik.api.Example
    void aReclaimerWaitsForTheVictimsItCountsOnWhoseOwnReclaimerWasAdmitted() {
        List<Step> steps = new ArrayList<>(List.of(new Submit(0, 0, 1, 0), new Submit(1, 0, 2, 0), new Submit(0, 0, 1, 0),
                new Submit(0, 0, 1, 0), new Submit(0, 0, 1, 0), new Submit(1, 0, 2, 0), new Submit(1, 0, 2, 0), new Submit(1, 0, 3, 0),
                new Release(0)));
        for (int job = 0; job < 11; job++) {
            steps.add(new Submit(0, 0, 1, 0));
        }
        steps.addAll(List.of(new Submit(0, 0, 1, 1), new Release(1), new Submit(2, 0, 4, 0), new GiveBack(8)));
        preemptsAVictimOnceForEachTimeItsReclaimerRuns(new Scenario(reclaimTreeYaml(12, 3), steps, false, false, true, false));
    }

    /**
     * Found by the property above: ns1/job-9 takes back 5 GPUs for the 3 it needs; ns2/job-10 counts on the 2 over and
     * preempts only ns0/job-2. Had job-10 not waited for job-9's victims too, it would have lost its hold once job-2 was
     * given back, and job-2 would have been admitted again, only to be preempted again.
     */
    @net.jqwik.api.Example
    void aReclaimerWaitsForAnotherReclaimersVictimsWhenItCountsOnWhatTheyFreeBeyondItsNeed() {
        List<Step> steps = new ArrayList<>();
        for (int gpus : new int[] {1, 1, 1, 3, 1, 1}) {
            steps.add(new Submit(0, 0, gpus, 0));
        }
        steps.addAll(List.of(new Submit(0, 0, 3, 1), new Submit(0, 0, 1, 0), new Submit(0, 0, 1, 0), new Submit(1, 0, 3, 0),
                new Submit(2, 0, 3, 0), new Delete(0), new Release(0), new GiveBack(2), new Release(3)));
        preemptsAVictimOnceForEachTimeItsReclaimerRuns(new Scenario(reclaimTreeYaml(11, 3), steps, false, false, true, true));
    }

    private static void preemptsAVictimOnceForEachTimeItsReclaimerRuns(Scenario scenario) {
        Run run = new Run(scenario);
        java.util.Set<List<String>> preemptedSinceTheReclaimerRan = new java.util.HashSet<>();
        for (Step step : scenario.steps()) {
            run.apply(step);
            for (QuotaDecision decision : run.decisionsPerStep.get(run.decisionsPerStep.size() - 1)) {
                if (decision instanceof QuotaDecision.Preempted preempted) {
                    assertThat(preemptedSinceTheReclaimerRan.add(List.of(preempted.job().uid(), preempted.by().uid())))
                            .as("%s preempted again for %s, which has not run since (at %s)", preempted.job().ref(), preempted.by().ref(), step)
                            .isTrue();
                } else if (decision instanceof QuotaDecision.Admitted admitted) {
                    preemptedSinceTheReclaimerRan.removeIf(pair -> pair.get(1).equals(admitted.job().uid()));
                }
            }
        }
    }

    @Provide
    Arbitrary<Scenario> reclaimScenarios() {
        Arbitrary<String> trees = Combinators.combine(Arbitraries.integers().between(4, 16), Arbitraries.integers().between(2, 3))
                .as(QuotaAdmissionProperties::reclaimTreeYaml);
        Arbitrary<Step> steps = Arbitraries.frequencyOf(
                Tuple.of(6, Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 8),
                        Arbitraries.integers().between(1, 4), Arbitraries.integers().between(-1, 2)).as(Submit::new)),
                Tuple.of(2, Arbitraries.integers().between(0, 40).map(Release::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 40).map(GiveBack::new)),
                Tuple.of(3, Arbitraries.integers().between(0, 40).map(Stop::new)),
                Tuple.of(1, Arbitraries.integers().between(0, 40).map(Delete::new)),
                Tuple.of(1, Arbitraries.integers().between(1, 15).map(Wait::new)));
        return Combinators.combine(trees, steps.list().ofMinSize(10).ofMaxSize(80), Arbitraries.just(false), Arbitraries.just(false),
                Arbitraries.of(true, false), Arbitraries.of(true, false)).as((tree, list, strict, never, fair, preempts) ->
                new Scenario(tree, list, strict, never, fair, fair && preempts));
    }

    /** Teams each allowed the whole root but guaranteed only their share of its GPUs. */
    static String reclaimTreeYaml(int gpus, int teams) {
        StringBuilder root = new StringBuilder("name: root\nmax: {cpu: 64, nvidia.com/gpu: %d}\nmin: {nvidia.com/gpu: %d}\nchildren:\n"
                .formatted(gpus, gpus));
        for (int team = 0; team < teams; team++) {
            root.append("- {name: n%d, max: {cpu: 64, nvidia.com/gpu: %d}, min: {nvidia.com/gpu: %d}, namespaces: [ns%d]}\n"
                    .formatted(team, gpus, gpus / teams, team));
        }
        return root.toString();
    }

    @Property(tries = 300)
    void everyJobThatCanFitIsAdmittedOnceCapacityFreesAndUsageReturnsToZero(@ForAll("scenarios") Scenario scenario) {
        Run run = new Run(scenario);
        scenario.steps().forEach(run::apply);

        // Let every admitted job finish, round after round, with time enough for any backoff.
        for (int round = 0; round <= run.submitted.size() + 2 && (!run.quota.admittedJobs().isEmpty() || anyFitsWaiting(run)); round++) {
            for (QuotaJob job : run.quota.admittedJobs()) {
                if (!run.quota.isPreempting(job.uid())) {
                    run.apply(new Release(run.submitted.indexOf(job)));
                }
            }
            // Each stop may admit a reclaimer and start another reclaim, but not for ever: that would be a reclaim livelock.
            for (int stops = 0; !run.stopping.isEmpty(); stops++) {
                assertThat(stops).as("stops in a row with jobs still being stopped (%s)", run.stopping).isLessThan(4 * run.submitted.size());
                run.apply(new Stop(0));
            }
            run.apply(new Wait(15));
            run.assertInvariants();
        }

        for (QuotaJob job : run.submitted) {
            if (fitsAlone(run.tree, job) && !run.deletedWhileWaiting.contains(job.uid())) {
                assertThat(run.everAdmitted).as("%s (%s) was never admitted", job.ref(), job.demand()).contains(job.uid());
            }
        }
        run.tree.nodes().forEach(node -> assertThat(run.quota.usage(node.name()).exceeding(ResourceList.empty())).isEmpty());
        run.tree.nodes().forEach(node -> assertThat(run.quota.usage(node.name()).names().stream()
                .allMatch(name -> run.quota.usage(node.name()).amount(name).signum() == 0)).as("usage of %s back to zero", node.pathText()).isTrue());
    }

    @Property(tries = 300)
    void aCoreRestoredFromPersistedStandingsDecidesExactlyAsOneThatNeverStopped(@ForAll("scenarios") Scenario scenario,
                                                                               @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 60) int crashAfter) {
        Run steady = new Run(scenario);
        Run crashed = new Run(scenario);
        int cut = Math.min(crashAfter, scenario.steps().size());

        for (int i = 0; i < scenario.steps().size(); i++) {
            if (i == cut) {
                crashed.restart();
            }
            steady.apply(scenario.steps().get(i));
            crashed.apply(scenario.steps().get(i));
        }

        assertThat(crashed.decisionsPerStep).isEqualTo(steady.decisionsPerStep);
        for (QuotaJob job : steady.submitted) {
            assertThat(crashed.quota.standing(job.uid())).as("standing of %s", job.ref()).isEqualTo(steady.quota.standing(job.uid()));
        }
        assertThat(crashed.persisted).isEqualTo(steady.persisted);
    }

    /**
     * An evaluation passes over queues its leaf refused entirely before and reuses verdicts within a pass; a
     * core restored before every step has neither, so it evaluates every job afresh. Both must decide alike.
     */
    @Property(tries = 300)
    void evaluationThatSkipsSettledQueuesDecidesAsAFreshOneAtEveryStep(@ForAll("scenarios") Scenario scenario) {
        Run incremental = new Run(scenario);
        Run fresh = new Run(scenario);

        for (Step step : scenario.steps()) {
            fresh.restart();
            incremental.apply(step);
            fresh.apply(step);
            assertThat(fresh.decisionsPerStep.get(fresh.decisionsPerStep.size() - 1))
                    .as("decisions after %s", step).isEqualTo(incremental.decisionsPerStep.get(incremental.decisionsPerStep.size() - 1));
        }
        assertThat(fresh.persisted).isEqualTo(incremental.persisted);
    }

    /**
     * Found by the property above: two subtrees of equal share, one with a queue its leaf refuses entirely (n0-0). Passed
     * over as settled, its head no longer stood for n0 in the fair order's tournament, n0-1's head did and beat n1-0's,
     * and a starving job of n0-1 held capacity before n1-0's job was weighed, which a fresh evaluation admitted.
     */
    @net.jqwik.api.Example
    void aQueueItsLeafRefusesEntirelyStillTakesPartInTheFairOrdersTournament() {
        String tree = """
                name: root
                max: {cpu: 4, nvidia.com/gpu: 6}
                min: {cpu: 4, nvidia.com/gpu: 6}
                children:
                - name: n0
                  max: {cpu: 2, nvidia.com/gpu: 3}
                  min: {cpu: 2, nvidia.com/gpu: 3}
                  children:
                  - {name: n0-0, max: {cpu: 1, kube-queue/max-jobs: 1}, min: {cpu: 1}, namespaces: [ns0-0]}
                  - {name: n0-1, max: {cpu: 2, kube-queue/max-jobs: 1}, min: {cpu: 1}, namespaces: [ns0-1]}
                - name: n1
                  max: {cpu: 3, nvidia.com/gpu: 4}
                  min: {cpu: 2, nvidia.com/gpu: 3}
                  children:
                  - {name: n1-0, max: {cpu: 1, kube-queue/max-jobs: 1}, min: {cpu: 1}, namespaces: [ns1-0]}
                  - {name: n1-1, max: {cpu: 2, kube-queue/max-jobs: 1}, min: {cpu: 1}, namespaces: [ns1-1]}
                """;
        List<Step> steps = List.of(new Submit(0, 0, 0, 0), new Submit(1, 0, 2, 0), new Submit(1, 0, 3, 0), new Submit(1, 3, 0, 1), new Wait(2),
                new Submit(0, 0, 0, 0), new Wait(8), new Submit(2, 0, 2, 1));
        evaluationThatSkipsSettledQueuesDecidesAsAFreshOneAtEveryStep(new Scenario(tree, steps, true, true, true, true));
    }

    /**
     * Within a pass a verdict is kept per leaf and demand while starving jobs hold capacity, and checked again only
     * where the holds changed, and a queue the shares alone chose goes on being served while the shares stay; a core
     * that works every verdict and choice out afresh must decide, word and persist alike.
     */
    @Property(tries = 300)
    void verdictsKeptAcrossHoldsDecideExactlyAsVerdictsWorkedOutForEveryJob(@ForAll("starvingScenarios") Scenario scenario) {
        decidesAsAFreshEvaluation(scenario, 1);
    }

    /**
     * A reclaim looks for the jobs that may reclaim by leaf and demand, walking only the queues that hold one within its
     * guarantee: it decides, words and persists as a core that looks through every waiting job.
     */
    @Property(tries = 600)
    void reclaimersFoundByLeafAndDemandDecideExactlyAsALookThroughEveryWaitingJob(@ForAll("reclaimOrAnyScenarios") Scenario scenario) {
        decidesAsAFreshEvaluation(scenario, 1);
    }

    @Provide
    Arbitrary<Scenario> reclaimOrAnyScenarios() {
        return Arbitraries.oneOf(reclaimScenarios(), scenarios());
    }

    /**
     * The start-time estimate's copy of the core stops a pass once none of the jobs left in it can be admitted: at every
     * step it admits and preempts exactly what the core that tells every job why it waits does, in the same order; over
     * starving queues, and over the scenarios with reclaims, fair sharing, strict FIFO and give-backs.
     */
    @Property(tries = 600)
    void aCoreThatOnlyDecidesAdmissionsAdmitsAndPreemptsExactlyAsTheFullCore(@ForAll("starvingOrAnyScenarios") Scenario scenario,
                                                                            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 4) int firstCheck) {
        admitsAndPreemptsAsTheFullCore(scenario, firstCheck);
    }

    @Provide
    Arbitrary<Scenario> starvingOrAnyScenarios() {
        return Arbitraries.oneOf(starvingScenarios(), scenarios());
    }

    private static void admitsAndPreemptsAsTheFullCore(Scenario scenario, int firstCheck) {
        Run full = new Run(scenario);
        Run admissionsOnly = new Run(scenario).decidingAdmissionsOnly(firstCheck);
        for (Step step : scenario.steps()) {
            full.apply(step);
            admissionsOnly.apply(step);
            assertThat(admissionsAndPreemptions(admissionsOnly.decisionsPerStep.get(admissionsOnly.decisionsPerStep.size() - 1)))
                    .as("admissions and preemptions after %s", step)
                    .isEqualTo(admissionsAndPreemptions(full.decisionsPerStep.get(full.decisionsPerStep.size() - 1)));
        }
        assertThat(admissionsOnly.quota.admittedJobs()).isEqualTo(full.quota.admittedJobs());
        for (QuotaJob job : full.submitted) {
            assertThat(admissionsOnly.quota.isWaiting(job.uid())).as("%s waiting", job.ref()).isEqualTo(full.quota.isWaiting(job.uid()));
        }
    }

    /**
     * The service's core lets the limit it told a waiting job lag for a while after a pass that told every job: its passes
     * then stop once none of the jobs left can be admitted. At every step it admits and preempts exactly what the core
     * that tells every job in every pass does, starts each job's wait at the same moment and tells each the same but for
     * which quota limit (a new job at once); once the refresh is due, a full pass blames the same limit for every job.
     */
    @Property(tries = 600)
    void aCoreWhoseReasonsLagAdmitsAndPreemptsExactlyAsTheFullCoreAndCatchesUpOnRefresh(@ForAll("starvingOrAnyScenarios") Scenario scenario,
                                                                                      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 4) int firstCheck) {
        Run full = new Run(scenario);
        Run lagging = new Run(scenario).lettingReasonsLag(Duration.ofDays(1), firstCheck);
        for (Step step : scenario.steps()) {
            full.apply(step);
            lagging.apply(step);
            assertSameDecisionsAndStandings(full, lagging, step);
        }
        Step refresh = new Wait((int) Duration.ofDays(1).toMinutes());
        full.apply(refresh);
        lagging.apply(refresh);
        assertSameDecisionsAndStandings(full, lagging, refresh);
        for (QuotaJob job : full.submitted) {
            full.quota.standing(job.uid()).filter(standing -> standing.reason() != null && QueuePass.isQuotaLimit(standing.reason()))
                    .ifPresent(standing -> assertThat(blocker(lagging.quota.standing(job.uid()).orElseThrow().message()))
                            .as("the limit %s is told blocks it after the refresh", job.ref()).isEqualTo(blocker(standing.message())));
        }
    }

    private static void assertSameDecisionsAndStandings(Run full, Run lagging, Step step) {
        assertThat(admissionsAndPreemptions(lagging.decisionsPerStep.get(lagging.decisionsPerStep.size() - 1)))
                .as("admissions and preemptions after %s", step)
                .isEqualTo(admissionsAndPreemptions(full.decisionsPerStep.get(full.decisionsPerStep.size() - 1)));
        for (QuotaJob job : full.submitted) {
            JobStanding expected = full.quota.standing(job.uid()).orElse(null);
            JobStanding actual = lagging.quota.standing(job.uid()).orElse(null);
            if (expected == null || actual == null) {
                assertThat(actual).as("%s after %s", job.ref(), step).isEqualTo(expected);
                continue;
            }
            assertThat(actual.admitted()).as("%s admitted after %s", job.ref(), step).isEqualTo(expected.admitted());
            assertThat(actual.waitingSince()).as("%s waiting since, after %s", job.ref(), step).isEqualTo(expected.waitingSince());
            if (expected.reason() != null && QueuePass.isQuotaLimit(expected.reason())) {
                assertThat(actual.reason()).as("%s told after %s: %s", job.ref(), step, actual.message()).matches(QueuePass::isQuotaLimit);
            } else {
                assertThat(actual.reason()).as("%s told after %s", job.ref(), step).isEqualTo(expected.reason());
                assertThat(actual.message()).as("%s told after %s", job.ref(), step).isEqualTo(expected.message());
            }
        }
    }

    /** What a quota limit's message names before its numbers: the node and the resource. */
    private static String blocker(String message) {
        int resource = message.indexOf(": ") + 2;
        return message.substring(0, message.indexOf(' ', resource));
    }

    private static List<QuotaDecision> admissionsAndPreemptions(List<QuotaDecision> decisions) {
        return decisions.stream().filter(decision -> !(decision instanceof QuotaDecision.Waiting)).toList();
    }

    /** A core that reuses verdicts and choices decides, words and persists at every step as one that works them out afresh. */
    private static void decidesAsAFreshEvaluation(Scenario scenario, int batch) {
        Run reusing = new Run(scenario, true, batch);
        Run afresh = new Run(scenario, false, batch);
        for (Step step : scenario.steps()) {
            reusing.apply(step);
            afresh.apply(step);
            assertThat(reusing.decisionsPerStep.get(reusing.decisionsPerStep.size() - 1)).as("decisions after %s", step)
                    .isEqualTo(afresh.decisionsPerStep.get(afresh.decisionsPerStep.size() - 1));
        }
        assertThat(reusing.persisted).isEqualTo(afresh.persisted);
    }

    private static boolean anyFitsWaiting(Run run) {
        return run.submitted.stream().anyMatch(job -> run.quota.isWaiting(job.uid()) && fitsAlone(run.tree, job));
    }

    private static boolean fitsAlone(QuotaTree tree, QuotaJob job) {
        return tree.pathToRoot(tree.leafFor(job.namespace()).orElseThrow()).stream().allMatch(node -> job.charge().fitsWithin(node.max()));
    }

    /**
     * A service that reads its inputs in batches defers the quota core's passes to the end of each batch: the one pass
     * then decides for every change of the batch. Nothing is ever over-admitted or lost, in the quota or on the members,
     * and no job runs twice.
     */
    @Property(tries = 300)
    void passesDeferredToTheEndOfABatchNeverOverAdmitAndLoseNothing(@ForAll("reclaimScenarios") Scenario scenario,
                                                                    @ForAll @net.jqwik.api.constraints.IntRange(min = 2, max = 8) int batch) {
        Run run = new Run(scenario, true, batch);
        for (Step step : scenario.steps()) {
            run.apply(step);
            run.assertInvariants();
        }
    }

    /** The pass at a batch's end keeps verdicts and choices as a pass after each change does: it decides as a fresh evaluation. */
    @Property(tries = 300)
    void aPassDeferredToTheEndOfABatchDecidesExactlyAsAFreshEvaluation(@ForAll("starvingScenarios") Scenario scenario,
                                                                      @ForAll @net.jqwik.api.constraints.IntRange(min = 2, max = 8) int batch) {
        decidesAsAFreshEvaluation(scenario, batch);
    }

    /** A service restarted between two batches (its state is committed with each batch) goes on deciding as one that never stopped. */
    @Property(tries = 300)
    void aBatchedCoreRestoredBetweenBatchesDecidesExactlyAsOneThatNeverStopped(@ForAll("scenarios") Scenario scenario,
                                                                              @ForAll @net.jqwik.api.constraints.IntRange(min = 2, max = 8) int batch,
                                                                              @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 10) int crashAfterBatches) {
        Run steady = new Run(scenario, true, batch);
        Run crashed = new Run(scenario, true, batch);
        for (int i = 0; i < scenario.steps().size(); i++) {
            if (i == crashAfterBatches * batch) {
                crashed.restart();
            }
            steady.apply(scenario.steps().get(i));
            crashed.apply(scenario.steps().get(i));
        }
        assertThat(crashed.decisionsPerStep).isEqualTo(steady.decisionsPerStep);
        assertThat(crashed.persisted).isEqualTo(steady.persisted);
    }
}
