package dev.muster.queue.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.muster.queue.core.quota.QuotaAdmissionProperties.Delete;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.GiveBack;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Release;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Run;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Scenario;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Step;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Stop;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Submit;
import dev.muster.queue.core.quota.QuotaAdmissionProperties.Wait;

/**
 * The quota core decides, on 400 seeded random streams, exactly what it decided when the recording was made: every
 * decision, every job's standing and waiting message, every node's usage after every step. It guards refactorings
 * of the core, which must change nothing a user sees. A deliberate change of behaviour records again with
 * {@code -Dmuster.quota.record=true} (run from the module's directory), and the commit says why the decisions changed.
 */
class QuotaAdmissionRecordedDecisionsTest {

    /** Recorded before fair sharing existed: with it disabled, the core decides as it always did. */
    private static final String RECORDING = "quota/recorded-decisions.txt";
    private static final String FAIR_RECORDING = "quota/recorded-fair-decisions.txt";
    private static final int STREAMS = 400;

    @Test
    void theCoreDecidesAsRecordedOnEverySeededStream() throws IOException {
        decidesAsRecorded(RECORDING, false);
    }

    @Test
    void theCoreDecidesAsRecordedOnEverySeededStreamUnderFairSharing() throws IOException {
        decidesAsRecorded(FAIR_RECORDING, true);
    }

    private void decidesAsRecorded(String recording, boolean fairSharing) throws IOException {
        List<String> digests = new ArrayList<>();
        for (int seed = 0; seed < STREAMS; seed++) {
            digests.add(seed + " " + digest(transcript(scenario(new Random(seed), seed % 2 == 1, fairSharing))));
        }
        if (Boolean.getBoolean("muster.quota.record")) {
            Path file = Path.of("src", "test", "resources", recording);
            Files.createDirectories(file.getParent());
            Files.write(file, digests);
            return;
        }
        try (InputStream recorded = getClass().getClassLoader().getResourceAsStream(recording)) {
            assertThat(recorded).as("the recording %s", recording).isNotNull();
            List<String> expected = new String(recorded.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            assertThat(digests).as("seed and digest of each stream's decisions").containsExactlyElementsOf(expected);
        }
    }

    /** What a user could see of the core after each step of the stream, in a stable text form. */
    private static String transcript(Scenario scenario) {
        Run run = new Run(scenario);
        StringBuilder text = new StringBuilder(scenario.treeYaml());
        for (Step step : scenario.steps()) {
            run.apply(step);
            text.append(step).append(" -> ").append(run.decisionsPerStep.get(run.decisionsPerStep.size() - 1)).append('\n');
            for (QuotaJob job : run.submitted) {
                text.append("  ").append(job.uid()).append(' ').append(run.quota.standing(job.uid()).map(Object::toString).orElse("-"))
                        .append(' ').append(run.quota.currentMessage(job.uid()).orElse("-")).append('\n');
            }
            run.tree.nodes().forEach(node -> text.append("  ").append(node.name()).append(' ').append(run.quota.usage(node.name())).append('\n'));
        }
        return text.toString();
    }

    /** Streams like the property tests': a general three-level tree, or teams borrowing and reclaiming GPUs. */
    private static Scenario scenario(Random random, boolean reclaiming, boolean fairSharing) {
        String tree = reclaiming
                ? QuotaAdmissionProperties.reclaimTreeYaml(between(random, 4, 16), between(random, 2, 3))
                : QuotaAdmissionProperties.treeYaml(between(random, 4, 64), between(random, 2, 16), between(random, 2, 3),
                between(random, 0, 2), between(random, 1, 6), random.nextBoolean());
        List<Step> steps = new ArrayList<>();
        int length = between(random, 10, 80);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(14);
            Step step;
            if (kind < 6) {
                step = new Submit(between(random, 0, 5), between(random, 0, reclaiming ? 8 : 24), between(random, reclaiming ? 1 : 0, reclaiming ? 4 : 6),
                        between(random, -1, 2));
            } else if (kind < 8) {
                step = new Release(between(random, 0, 40));
            } else if (kind < 9) {
                step = new GiveBack(between(random, 0, 40));
            } else if (kind < 11) {
                step = new Stop(between(random, 0, 40));
            } else if (kind < 12) {
                step = new Delete(between(random, 0, 40));
            } else {
                step = new Wait(between(random, 1, 15));
            }
            steps.add(step);
        }
        return new Scenario(tree, steps, !reclaiming && random.nextBoolean(), !reclaiming && random.nextInt(4) == 0, fairSharing);
    }

    private static int between(Random random, int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
