package dev.muster.statussync.core.mirror;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The copies the mirror follows, one per member and fleet job, with the indexes that keep a pod change or a tick to the
 * copies of one job rather than a scan of the whole fleet; {@link JobMirror}'s alone to change.
 */
final class CopyIndex {

    /** Where a copy is, and whose: a member holds at most one copy of a fleet job. */
    record CopyKey(String cluster, String uid) {

        static CopyKey of(TrackedCopy tracked) {
            return new CopyKey(tracked.copy.cluster(), tracked.copy.job().uid());
        }
    }

    private final Map<CopyKey, TrackedCopy> copies = new LinkedHashMap<>();
    private final Map<String, Map<CopyKey, TrackedCopy>> byUid = new LinkedHashMap<>();
    private final Map<MemberJobName, Set<String>> uidsByName = new HashMap<>();

    TrackedCopy get(CopyKey key) {
        return copies.get(key);
    }

    void add(CopyKey key, TrackedCopy tracked) {
        copies.put(key, tracked);
        byUid.computeIfAbsent(key.uid(), uid -> new LinkedHashMap<>()).put(key, tracked);
        uidsByName.computeIfAbsent(MemberJobName.of(tracked.copy), name -> new LinkedHashSet<>()).add(key.uid());
    }

    /** The copy removed, or null when none was there. */
    TrackedCopy remove(CopyKey key) {
        TrackedCopy tracked = copies.remove(key);
        if (tracked == null) {
            return null;
        }
        Map<CopyKey, TrackedCopy> ofUid = byUid.get(key.uid());
        ofUid.remove(key);
        if (ofUid.isEmpty()) {
            byUid.remove(key.uid());
        }
        unindexName(key, tracked.copy);
        return tracked;
    }

    /** The member's newer word on a copy followed already: its name may have changed with it. */
    void update(CopyKey key, TrackedCopy tracked, MemberCopy copy) {
        unindexName(key, tracked.copy);
        tracked.copy = copy;
        uidsByName.computeIfAbsent(MemberJobName.of(copy), name -> new LinkedHashSet<>()).add(key.uid());
    }

    /** The copies of one fleet job, by where they are: a view, to copy before changing the index while going through. */
    Map<CopyKey, TrackedCopy> ofJob(String uid) {
        return Collections.unmodifiableMap(byUid.getOrDefault(uid, Map.of()));
    }

    /** The fleet jobs whose copies go by this name on this member. */
    List<String> uidsNamed(MemberJobName name) {
        return List.copyOf(uidsByName.getOrDefault(name, Set.of()));
    }

    /** Every copy followed, by where it is: a view, to copy before changing the index while going through. */
    Map<CopyKey, TrackedCopy> all() {
        return Collections.unmodifiableMap(copies);
    }

    private void unindexName(CopyKey key, MemberCopy copy) {
        Set<String> uids = uidsByName.get(MemberJobName.of(copy));
        if (uids != null && uids.remove(key.uid()) && uids.isEmpty()) {
            uidsByName.remove(MemberJobName.of(copy));
        }
    }
}
