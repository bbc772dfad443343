package dev.muster.gangfit;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Why a gang cannot be placed somewhere, worded only when first read. Wording it can take a scan of every node
 * of a cluster, and most answers are never shown: a waiting gang is tried on every member each time the
 * inventory changes, and only whether it fits decides anything then.
 */
public final class Reason {

    private Supplier<String> wording;
    private String text;

    private Reason(Supplier<String> wording, String text) {
        this.wording = wording;
        this.text = text;
    }

    /** A reason already worded. */
    public static Reason of(String text) {
        return new Reason(null, Objects.requireNonNull(text));
    }

    /** A reason worded by {@code wording} the first time it is read; what it reads must not change meanwhile. */
    public static Reason worded(Supplier<String> wording) {
        return new Reason(Objects.requireNonNull(wording), null);
    }

    /** The reason, e.g. {@code no node has 8 nvidia.com/gpu free for pod worker-1 (largest free: 4 on node b-7)}. */
    public synchronized String text() {
        if (text == null) {
            text = wording.get();
            wording = null;
        }
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Reason reason && text().equals(reason.text());
    }

    @Override
    public int hashCode() {
        return text().hashCode();
    }

    @Override
    public String toString() {
        return text();
    }
}
