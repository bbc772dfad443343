package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Which borrowers a guaranteed job may take capacity back from, over one tree and its usage: the rules of a
 * reclaim, apart from carrying one out (see {@link Reclaims}).
 */
final class Reclaim {

    /** Lowest priority first, then the most recently admitted, then the most recently submitted (then by UID: one order on every replay). */
    static final Comparator<Admission> VICTIM_ORDER = (one, other) -> {
        if (one.job().priority() != other.job().priority()) {
            return Integer.compare(one.job().priority(), other.job().priority());
        }
        int byAdmission = other.admittedAt().compareTo(one.admittedAt());
        if (byAdmission != 0) {
            return byAdmission;
        }
        int bySubmission = Long.compare(other.job().sequence(), one.job().sequence());
        return bySubmission != 0 ? bySubmission : one.job().uid().compareTo(other.job().uid());
    };

    private final QuotaTree tree;
    private final Map<String, ResourceList> used;

    Reclaim(QuotaTree tree, Map<String, ResourceList> used) {
        this.tree = tree;
        this.used = used;
    }

    /**
     * Whether the job is within its guarantee: its leaf's {@code min} names some resource the job asks for, and on every
     * node of its path below the root the job fits under the {@code min} for each resource that min names, counting at
     * a parent only what its children use within their own mins (what a child uses beyond its min it borrows, and gives
     * back). Resources a min does not name (the cpu and memory beside a GPU guarantee) neither make nor break it.
     */
    boolean isWithinGuarantee(List<Node> path, QuotaJob job) {
        return isWithinGuarantee(path, job.demand());
    }

    /** The same, for a job of this demand. */
    boolean isWithinGuarantee(List<Node> path, ResourceList demand) {
        Node leaf = path.get(0);
        if (!guaranteesSomeOf(leaf, demand)) {
            return false;
        }
        for (int at = 0; at < path.size() - 1; at++) {
            ResourceList min = path.get(at).min();
            for (int i = 0; i < min.size(); i++) {
                BigDecimal need = demand.amount(min.nameAt(i));
                if (need.signum() > 0 && guaranteedUse(path.get(at), min.nameAt(i)).add(need).compareTo(min.amountAt(i)) > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether no job of the leaf at the path's start, below the root, can be within its guarantee: for each resource the
     * leaf's min names, even the least any of its jobs asks of it (those that ask some) goes above the min beside what the
     * leaf uses. Each job within its guarantee asks some of one of those resources and fits under the leaf's min with it.
     *
     * @param leastAsked the least amount of a resource any waiting job of the leaf asks, among those that ask some; null when none does
     */
    boolean noJobWithinGuarantee(List<Node> path, java.util.function.Function<String, BigDecimal> leastAsked) {
        Node leaf = path.get(0);
        if (path.size() < 2) {
            return false;
        }
        for (String resource : leaf.min().names()) {
            if (ResourceNames.MAX_JOBS.equals(resource)) {
                continue;
            }
            BigDecimal least = leastAsked.apply(resource);
            if (least != null && guaranteedUse(leaf, resource).add(least).compareTo(leaf.min().amount(resource)) <= 0) {
                return false;
            }
        }
        return true;
    }

    /** What each node of the path below the root uses within guarantees of each resource its min names: all a guarantee depends on. */
    List<BigDecimal> guaranteedUses(List<Node> path) {
        List<BigDecimal> uses = new ArrayList<>();
        for (Node node : path.subList(0, path.size() - 1)) {
            for (String resource : node.min().names()) {
                uses.add(guaranteedUse(node, resource));
            }
        }
        return uses;
    }

    /** What the node uses of the resource within guarantees: a leaf, all it uses; a parent, each child's use up to the child's min. */
    private BigDecimal guaranteedUse(Node node, String resource) {
        if (node.isLeaf()) {
            return usage(used, node.name()).amount(resource);
        }
        BigDecimal total = BigDecimal.ZERO;
        for (String name : node.children()) {
            // amount is zero for a resource the child's min does not name: it is guaranteed none of it.
            BigDecimal childMin = tree.node(name).orElseThrow().min().amount(resource);
            total = total.add(usage(used, name).amount(resource).min(childMin));
        }
        return total;
    }

    /** The resources the job asks for that its leaf's min guarantees: the only ones it may take back. */
    private static Set<String> guaranteedResources(Node leaf, QuotaJob job) {
        Set<String> resources = new HashSet<>();
        for (String resource : leaf.min().names()) {
            if (!ResourceNames.MAX_JOBS.equals(resource) && job.demand().amount(resource).signum() > 0) {
                resources.add(resource);
            }
        }
        return resources;
    }

    /** Whether the demand asks for some resource its leaf's min guarantees. */
    private static boolean guaranteesSomeOf(Node leaf, ResourceList demand) {
        for (String resource : leaf.min().names()) {
            if (!ResourceNames.MAX_JOBS.equals(resource) && demand.amount(resource).signum() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The victims for the job (see the search both ways share, below), found by looking through every admitted job: what
     * tests compare the search by leaf with.
     */
    List<Admission> victimsFor(List<Node> path, QuotaJob job, Collection<Admission> admitted) {
        return victimsFor(path, job, (onPath, borrowing) -> {
            List<Admission> eligible = new ArrayList<>();
            // Whether a job borrows through those branches depends on its leaf, and then on what it is charged: thousands of
            // admitted jobs share a few leaves, whose paths are walked once each.
            Map<String, Set<String>> borrowedByLeaf = new HashMap<>();
            for (Admission admission : admitted) {
                Set<String> resources = borrowedByLeaf.computeIfAbsent(admission.leaf(), leaf -> borrowedThrough(leaf, onPath, borrowing));
                if (!admission.stopping() && chargedSomeOf(admission, resources)) {
                    eligible.add(admission);
                }
            }
            eligible.sort(VICTIM_ORDER);
            return eligible.iterator();
        });
    }

    /**
     * The same victims, taken from the admitted jobs of each leaf kept in {@link #VICTIM_ORDER}: the borrowing leaves'
     * are merged lazily, so that a reclaim that takes a few of a thousand borrowers looks at a few.
     */
    List<Admission> victimsFor(List<Node> path, QuotaJob job, Map<String, ? extends NavigableSet<Admission>> admittedByLeaf) {
        return victimsFor(path, job, (onPath, borrowing) -> {
            PriorityQueue<LeafVictims> heads = new PriorityQueue<>();
            admittedByLeaf.forEach((leaf, admissions) -> {
                Set<String> resources = borrowedThrough(leaf, onPath, borrowing);
                if (!resources.isEmpty()) {
                    new LeafVictims(admissions.iterator(), resources).queueIn(heads);
                }
            });
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return !heads.isEmpty();
                }

                @Override
                public Admission next() {
                    LeafVictims first = heads.remove();
                    Admission head = first.head;
                    first.queueIn(heads);
                    return head;
                }
            };
        });
    }

    /**
     * The fewest admitted jobs, lowest priority and newest first, whose removal lets the job fit, taken only from
     * sibling subtrees that use more than their own min of a resource the job is short of and its leaf guarantees;
     * none when even all of them would not be enough. Jobs already being preempted are not taken again: the
     * capacity they free is another reclaimer's.
     *
     * @param eligible the admitted jobs under the borrowing branches charged some of what they borrow and not being
     *                 stopped, in victim order, from the waiting job's path's node names and the borrowing branches
     */
    private List<Admission> victimsFor(List<Node> path, QuotaJob job,
                                       BiFunction<Set<String>, Map<String, Set<String>>, Iterator<Admission>> eligible) {
        Set<String> guaranteed = guaranteedResources(path.get(0), job);
        // Under overload a reclaim looks for victims for a few jobs after each pass, and nearly always finds the job short
        // of nothing its leaf guarantees: answered before anything is gathered.
        if (!shortOfSomeGuaranteed(path, job, guaranteed)) {
            return List.of();
        }
        Set<String> onPath = path.stream().map(Node::name).collect(Collectors.toSet());
        Map<String, Set<String>> borrowing = borrowingBranches(path, onPath, job, guaranteed);
        if (borrowing.isEmpty()) {
            return List.of();
        }
        Iterator<Admission> candidates = eligible.apply(onPath, borrowing);
        Map<String, ResourceList> simulated = new HashMap<>(used);
        List<Admission> chosen = new ArrayList<>();
        while (candidates.hasNext()) {
            if (Shortfall.fitsUnderMax(path, job.charge(), simulated)) {
                break;
            }
            Admission candidate = candidates.next();
            if (borrowingBranch(candidate, path, onPath, job, guaranteed, simulated).isPresent()) {
                QuotaLedger.uncharge(tree, candidate.job(), candidate.leaf(), simulated);
                chosen.add(candidate);
            }
        }
        return Shortfall.fitsUnderMax(path, job.charge(), simulated) ? chosen : List.of();
    }

    /** One borrowing leaf's admitted jobs in victim order, those that may be taken: ranked by the first of them. */
    private static final class LeafVictims implements Comparable<LeafVictims> {

        private final Iterator<Admission> rest;
        private final Set<String> resources;
        private Admission head;

        LeafVictims(Iterator<Admission> admissions, Set<String> resources) {
            this.rest = admissions;
            this.resources = resources;
        }

        /** Moves on to the next job that may be taken and queues this leaf by it; leaves it out when none is left. */
        void queueIn(PriorityQueue<LeafVictims> heads) {
            while (rest.hasNext()) {
                Admission next = rest.next();
                if (!next.stopping() && chargedSomeOf(next, resources)) {
                    head = next;
                    heads.add(this);
                    return;
                }
            }
        }

        @Override
        public int compareTo(LeafVictims other) {
            return VICTIM_ORDER.compare(head, other.head);
        }
    }

    /** Whether some node of the path has too little left of a resource the job asks for and its leaf guarantees. */
    private boolean shortOfSomeGuaranteed(List<Node> path, QuotaJob job, Set<String> guaranteed) {
        for (Node ancestor : path) {
            if (!lacking(ancestor, job, guaranteed, used).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The resources the job asks for and its leaf guarantees of which the node has too little left with this usage: what
     * the job may take back through the node's other children. Guaranteed resources are never the job count, so the
     * job's demand says what it needs of them.
     */
    private static List<String> lacking(Node node, QuotaJob job, Set<String> guaranteed, Map<String, ResourceList> usage) {
        List<String> lacking = List.of();
        ResourceList nodeUsed = usage(usage, node.name());
        ResourceList max = node.max();
        for (int i = 0; i < max.size(); i++) {
            String resource = max.nameAt(i);
            BigDecimal need = job.demand().amount(resource);
            if (need.signum() > 0 && guaranteed.contains(resource) && nodeUsed.amount(resource).add(need).compareTo(max.amountAt(i)) > 0) {
                lacking = lacking.isEmpty() ? new ArrayList<>() : lacking;
                lacking.add(resource);
            }
        }
        return lacking;
    }

    /**
     * The children, off the waiting job's path, of the nodes on it where the job is short, that use more than
     * their min of a resource the job is short of there and its leaf guarantees: by name, with those resources.
     * Worked out once per job from the tree, so that each admitted job is then only looked up.
     */
    private Map<String, Set<String>> borrowingBranches(List<Node> path, Set<String> onPath, QuotaJob job, Set<String> guaranteed) {
        Map<String, Set<String>> branches = new HashMap<>();
        for (Node ancestor : path) {
            // Where the job is short of no resource its leaf guarantees, no child borrows from it: under overload most
            // guaranteed jobs that wait are short of what starving jobs hold, not of what others borrow.
            List<String> lacking = lacking(ancestor, job, guaranteed, used);
            if (lacking.isEmpty()) {
                continue;
            }
            for (String child : ancestor.children()) {
                if (onPath.contains(child)) {
                    continue;
                }
                Node branch = tree.node(child).orElseThrow();
                ResourceList branchUsed = usage(used, child);
                for (String resource : lacking) {
                    if (branchUsed.amount(resource).compareTo(branch.min().amount(resource)) > 0) {
                        branches.computeIfAbsent(child, name -> new HashSet<>()).add(resource);
                    }
                }
            }
        }
        return branches;
    }

    /** The resources the jobs of the leaf borrow through those branches (the branch of the leaf's path, if any, names them); none when it is under none. */
    private Set<String> borrowedThrough(String leaf, Set<String> onPath, Map<String, Set<String>> borrowing) {
        for (String node : tree.node(leaf).orElseThrow().path()) {
            if (!onPath.contains(node)) {
                return borrowing.getOrDefault(node, Set.of());
            }
        }
        return Set.of();
    }

    /** Whether the admitted job is charged some of one of these resources (guaranteed ones: its demand's, not the job it counts as). */
    private static boolean chargedSomeOf(Admission admission, Set<String> resources) {
        for (String resource : resources) {
            if (admission.job().demand().amount(resource).signum() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The node through which an admitted job borrows from the waiting job's path: the child, off that path,
     * of a node on it where the waiting job is short, using more than its min of a resource the job is short of.
     */
    private Optional<Node> borrowingBranch(Admission admission, List<Node> path, Set<String> onPath, QuotaJob job, Set<String> guaranteed,
                                           Map<String, ResourceList> usage) {
        List<String> victimPath = tree.node(admission.leaf()).orElseThrow().path();
        for (int depth = 0; depth < victimPath.size() - 1; depth++) {
            String ancestor = victimPath.get(depth);
            String branch = victimPath.get(depth + 1);
            if (!onPath.contains(ancestor) || onPath.contains(branch)) {
                continue;
            }
            Node ancestorNode = tree.node(ancestor).orElseThrow();
            Node branchNode = tree.node(branch).orElseThrow();
            ResourceList branchUsed = usage(usage, branch);
            for (String resource : lacking(ancestorNode, job, guaranteed, usage)) {
                if (branchUsed.amount(resource).compareTo(branchNode.min().amount(resource)) > 0
                        && admission.job().demand().amount(resource).signum() > 0) {
                    return Optional.of(branchNode);
                }
            }
        }
        return Optional.empty();
    }

    private static ResourceList usage(Map<String, ResourceList> usage, String node) {
        return usage.getOrDefault(node, ResourceList.empty());
    }
}
