package dev.muster.queue.core.quota;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Within one evaluation, what the waiting jobs of one leaf with one demand have in common: their verdict (never fits,
 * fits now, or the limit that refuses them) and whether they are within their guarantee. Queues hold many jobs of few
 * sizes, so most jobs find their answer here.
 * <p>
 * Usage only grows within a pass, and so does held capacity once the pass has started (a reclaimer's hold is taken back
 * only while it is weighed, then put back or turned into usage). So a job that did not fit does not fit later in the
 * pass either, and the first limit that refuses it can only move to a node or resource before that limit: under overload,
 * where each of thousands of starving jobs holds capacity in turn, a verdict is kept and checked again only on the nodes
 * whose holds changed, up to its limit. Verdicts are forgotten when usage changes or a pass starts with new holds,
 * guarantees when usage does; everything at the start of each evaluation (the tree may differ).
 */
final class PassMemo {

    /** @param versions the holds' versions of the path's nodes when the verdict was worked out */
    private record Entry(Verdict verdict, int[] versions) {
    }

    // By leaf, then by the demand's instance: jobs of one demand share it (QuotaLedger#withSharedDemand), and a job whose
    // demand is another instance of an equal one only has its verdict worked out again.
    private final Map<String, Map<ResourceList, Entry>> verdicts = new HashMap<>();
    private final Map<String, Map<ResourceList, Boolean>> guaranteed = new HashMap<>();
    private final Map<String, Boolean> someWithinGuarantee = new HashMap<>();
    private final boolean reuseVerdicts;
    private int usageVersion;

    /** @param reuseVerdicts false to work every verdict out afresh: what the reuse must decide exactly as */
    PassMemo(boolean reuseVerdicts) {
        this.reuseVerdicts = reuseVerdicts;
    }

    /** The verdict for the jobs of the path's leaf of this demand under this usage and these holds; null when they fit. */
    Verdict verdict(List<Node> path, QuotaJob job, ResourceList charge, Map<String, ResourceList> usage, Holds holds) {
        Map<ResourceList, Entry> ofLeaf = verdicts.computeIfAbsent(path.get(0).name(), name -> new IdentityHashMap<>());
        Entry entry = reuseVerdicts ? ofLeaf.get(job.demand()) : null;
        if (entry != null) {
            if (entry.verdict() != null && entry.verdict().neverFits()) {
                return entry.verdict();
            }
            int[] now = versions(path, holds);
            if (java.util.Arrays.equals(now, entry.versions())) {
                return entry.verdict();
            }
            if (entry.verdict() != null) {
                Shortfall limit = entry.verdict().limit;
                int[] then = entry.versions();
                Optional<Shortfall> earlier = Shortfall.before(limit, path, charge, usage, holds,
                        node -> then[path.indexOf(node)] != now[path.indexOf(node)]);
                if (earlier.isEmpty()) {
                    Verdict same = entry.verdict().withNumbersOutOfDate();
                    ofLeaf.put(job.demand(), new Entry(same, now));
                    return same;
                }
            }
        }
        return fresh(path, job, charge, usage, holds);
    }

    /** The verdict worked out afresh, with the numbers of now, and kept for the jobs that come next. */
    Verdict fresh(List<Node> path, QuotaJob job, ResourceList charge, Map<String, ResourceList> usage, Holds holds) {
        Node leaf = path.get(0);
        Verdict verdict = Shortfall.first(path, charge, Map.of(), Holds.NONE).map(Verdict::never)
                .orElseGet(() -> Shortfall.first(path, charge, usage, holds)
                        .map(limit -> Verdict.limit(limit, limit.node().name().equals(leaf.name())))
                        .orElse(null));
        verdicts.computeIfAbsent(leaf.name(), name -> new IdentityHashMap<>()).put(job.demand(), new Entry(verdict, versions(path, holds)));
        return verdict;
    }

    /** Whether some job of the leaf may be within its guarantee, worked out once per leaf while usage stays. */
    boolean someWithinGuarantee(Node leaf, Supplier<Boolean> work) {
        return someWithinGuarantee.computeIfAbsent(leaf.name(), name -> work.get());
    }

    boolean guaranteed(Node leaf, ResourceList demand, Supplier<Boolean> work) {
        Map<ResourceList, Boolean> ofLeaf = guaranteed.computeIfAbsent(leaf.name(), name -> new IdentityHashMap<>());
        Boolean known = ofLeaf.get(demand);
        if (known == null) {
            known = work.get();
            ofLeaf.put(demand, known);
        }
        return known;
    }

    void usageChanged() {
        usageVersion++;
        verdicts.clear();
        guaranteed.clear();
        someWithinGuarantee.clear();
    }

    /** Counts the times usage changed: what was worked out of guarantees holds while it stays. */
    int usageVersion() {
        return usageVersion;
    }

    /** A pass starts with holds of its own: what was held may be less than before. */
    void newHolds() {
        verdicts.clear();
    }

    void forget() {
        usageChanged();
    }

    private static int[] versions(List<Node> path, Holds holds) {
        int[] versions = new int[path.size()];
        for (int i = 0; i < versions.length; i++) {
            versions[i] = holds.version(path.get(i).name());
        }
        return versions;
    }

    /** Why a job waits, as reported, worded when first needed. */
    static final class Verdict {

        private final Shortfall limit;
        private final boolean neverFits;
        private final boolean atLeaf;
        private final boolean numbersOutOfDate;
        private final String blocker;
        private String message;

        private Verdict(Shortfall limit, boolean neverFits, boolean atLeaf, boolean numbersOutOfDate, String blocker) {
            this.limit = limit;
            this.neverFits = neverFits;
            this.atLeaf = atLeaf;
            this.numbersOutOfDate = numbersOutOfDate;
            this.blocker = blocker;
        }

        /** The job can never be admitted under this tree: its demand is above a max on its path. */
        static Verdict never(Shortfall limit) {
            return new Verdict(limit, true, true, false, null);
        }

        /** The job does not fit now; {@code atLeaf}: its own leaf refuses it, so nothing above it can change that. */
        static Verdict limit(Shortfall limit, boolean atLeaf) {
            return new Verdict(limit, false, atLeaf, false, limit.blocker());
        }

        /** The same limit refuses the job, with more held or used there since: its reason and numbers must be worked out again. */
        Verdict withNumbersOutOfDate() {
            // The same limit, so the same words: under overload this runs for most jobs each pass weighs.
            return new Verdict(limit, false, atLeaf, true, blocker);
        }

        boolean neverFits() {
            return neverFits;
        }

        boolean atLeaf() {
            return atLeaf;
        }

        /** Whether only the limit ({@link #blocker}) is known, not the reason and message of now. */
        boolean numbersOutOfDate() {
            return numbersOutOfDate;
        }

        String reason() {
            requireCurrent();
            return neverFits ? QuotaAdmission.QUOTA_NEVER_FITS : limit.reason();
        }

        /** What the message names before its numbers (e.g. {@code root/team-a: nvidia.com/gpu }); null when the whole message does. */
        String blocker() {
            return blocker;
        }

        String message() {
            requireCurrent();
            if (message == null) {
                message = neverFits ? limit.neverMessage() : limit.message();
            }
            return message;
        }

        private void requireCurrent() {
            if (numbersOutOfDate) {
                throw new IllegalStateException("the verdict's numbers are out of date: work it out afresh");
            }
        }
    }
}
