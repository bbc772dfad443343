package dev.muster.fleetclient;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * An informer's cache that keeps of each object only what its service reads of it, by {@code namespace/name} as
 * informers look objects up: fabric8 parses an object whole, every part with its own map of unknown fields, and a
 * service caches thousands. The informer hands whole objects to its handlers as they are observed; what the
 * cache gives back (a resync, a deletion seen at a re-list, a listing) is the kept form, made an object again.
 *
 * @param <T> the cached kind
 * @param <K> what is kept of one object
 */
public abstract class ReducedItemStore<T extends HasMetadata, K> implements ItemStore<T> {

    private final Map<String, K> kept = new ConcurrentHashMap<>();

    /** What is kept of the object. */
    protected abstract K keep(T object);

    /** The kept form as an object again, with every part the service reads. */
    protected abstract T restore(K kept);

    @Override
    public String getKey(T object) {
        return Cache.metaNamespaceKeyFunc(object);
    }

    @Override
    public T put(String key, T object) {
        return restoreOrNull(kept.put(key, keep(object)));
    }

    @Override
    public T remove(String key) {
        return restoreOrNull(kept.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return kept.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return kept.values().stream().map(this::restore);
    }

    @Override
    public int size() {
        return kept.size();
    }

    @Override
    public T get(String key) {
        return restoreOrNull(kept.get(key));
    }

    private T restoreOrNull(K form) {
        return form == null ? null : restore(form);
    }

    /** A cache that keeps a smaller object of the same kind, made by {@code reduce}, which the service reads as it is. */
    public static class OfSameKind<T extends HasMetadata> extends ReducedItemStore<T, T> {

        private final UnaryOperator<T> reduce;

        protected OfSameKind(UnaryOperator<T> reduce) {
            this.reduce = reduce;
        }

        @Override
        protected final T keep(T object) {
            return reduce.apply(object);
        }

        @Override
        protected final T restore(T kept) {
            return kept;
        }
    }
}
