package dev.muster.model.resource;

import java.math.BigDecimal;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import io.fabric8.kubernetes.api.model.Quantity;

/**
 * An immutable set of named resource amounts ({@code cpu}, {@code memory}, {@code nvidia.com/gpu}, …)
 * with exact arithmetic.
 * <p>
 * A name that is absent has amount zero in sums and differences. Whether an absent name means
 * "unlimited" is for the caller to say: {@link #exceeding(ResourceList)} compares only the names the
 * limit lists, as quota and capacity checks need.
 * In JSON a list is an object of canonical quantity strings: {@code {"cpu":"4010m","memory":"4Gi"}}.
 * <p>
 * A list names a handful of resources and the quota core and the packers read and add lists millions of times a
 * second, so the names and amounts sit in two arrays sorted by name rather than in a map.
 */
public final class ResourceList {

    private static final String[] NO_NAMES = new String[0];
    private static final BigDecimal[] NO_AMOUNTS = new BigDecimal[0];
    private static final ResourceList EMPTY = new ResourceList(NO_NAMES, NO_AMOUNTS);
    /** Up to how many names a lookup scans rather than searches. */
    private static final int SCANNED = 8;

    /** The names, sorted as {@link String#compareTo} sorts them, each once. */
    private final String[] names;
    /** The amount of each name, at the same index. */
    private final BigDecimal[] amounts;
    /** The hash once worked out (0 until then), as {@link String} keeps its own: lists are keys of hot maps. */
    private int hash;

    private ResourceList(String[] names, BigDecimal[] amounts) {
        this.names = names;
        this.amounts = amounts;
    }

    private static ResourceList of(TreeMap<String, BigDecimal> sorted) {
        if (sorted.isEmpty()) {
            return EMPTY;
        }
        return new ResourceList(sorted.keySet().toArray(NO_NAMES), sorted.values().toArray(NO_AMOUNTS));
    }

    public static ResourceList empty() {
        return EMPTY;
    }

    /** One resource with the given amount. */
    public static ResourceList of(String name, BigDecimal amount) {
        return new ResourceList(new String[] {requireName(name)}, new BigDecimal[] {amount.stripTrailingZeros()});
    }

    /**
     * Parses a map of quantity strings, as found in manifests and events.
     *
     * @throws InvalidResourceException naming the resource whose quantity cannot be parsed
     */
    @JsonCreator
    public static ResourceList parse(Map<String, String> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return EMPTY;
        }
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        quantities.forEach((name, text) -> map.put(requireName(name), parseNamed(name, text)));
        return of(map);
    }

    /**
     * Reads a fabric8 resource map (container requests, limits, pod overhead).
     *
     * @throws InvalidResourceException naming the resource whose quantity cannot be parsed
     */
    public static ResourceList fromQuantities(Map<String, Quantity> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return EMPTY;
        }
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        quantities.forEach((name, quantity) ->
                map.put(requireName(name), parseNamed(name, quantity == null ? null : quantity.toString())));
        return of(map);
    }

    private static BigDecimal parseNamed(String name, String text) {
        try {
            return Quantities.parse(text);
        } catch (InvalidQuantityException e) {
            throw new InvalidResourceException(name, e.getMessage());
        }
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("resource name must not be blank");
        }
        return name;
    }

    /**
     * Where the name sits in {@link #names}, or -1. Names are mostly few, where a scan beats a search; a list of many (a
     * manifest may name thousands) is searched, so that walking one list's names through another stays n log n.
     */
    private int indexOf(String name) {
        if (names.length > SCANNED) {
            int index = Arrays.binarySearch(names, name);
            return index < 0 ? -1 : index;
        }
        for (int i = 0; i < names.length; i++) {
            String named = names[i];
            if (named == name || named.equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** How many names the list has: with {@link #nameAt} and {@link #amountAt}, a walk over every entry without a lookup. */
    public int size() {
        return names.length;
    }

    /** The name at this index, in name order. */
    public String nameAt(int index) {
        return names[index];
    }

    /** The amount of the name at this index. */
    public BigDecimal amountAt(int index) {
        return amounts[index];
    }

    /** The amount of the named resource; zero when absent. */
    public BigDecimal amount(String name) {
        int index = indexOf(name);
        return index < 0 ? BigDecimal.ZERO : amounts[index];
    }

    /** Whether the list names this resource (with any amount, zero included). */
    public boolean names(String name) {
        return indexOf(name) >= 0;
    }

    /** The names, in name order. */
    public Set<String> names() {
        return new Names();
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    /** The sum of the lists, as adding them one by one gives, without a list made per step. */
    public static ResourceList sum(Iterable<ResourceList> lists) {
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        for (ResourceList list : lists) {
            for (int i = 0; i < list.names.length; i++) {
                map.merge(list.names[i], list.amounts[i], BigDecimal::add);
            }
        }
        map.replaceAll((name, amount) -> amount.stripTrailingZeros());
        return of(map);
    }

    public ResourceList plus(ResourceList other) {
        return combine(other, BigDecimal::add);
    }

    public ResourceList minus(ResourceList other) {
        return combine(other, BigDecimal::subtract);
    }

    /** The element-wise maximum, as Kubernetes combines init containers. */
    public ResourceList max(ResourceList other) {
        return combine(other, BigDecimal::max);
    }

    public ResourceList times(int factor) {
        if (factor == 1) {
            return this;
        }
        BigDecimal multiplier = BigDecimal.valueOf(factor);
        BigDecimal[] multiplied = new BigDecimal[amounts.length];
        for (int i = 0; i < amounts.length; i++) {
            multiplied[i] = amounts[i].multiply(multiplier).stripTrailingZeros();
        }
        return new ResourceList(names, multiplied);
    }

    /** This list with one resource set to the given amount. */
    public ResourceList with(String name, BigDecimal amount) {
        return combine(of(name, amount), (mine, theirs) -> theirs);
    }

    /**
     * The names, among those the limit lists, whose amount here is greater than the limit's.
     * Names the limit does not list are not limited.
     */
    public List<String> exceeding(ResourceList limit) {
        List<String> exceeded = new ArrayList<>();
        for (int i = 0; i < limit.names.length; i++) {
            if (amount(limit.names[i]).compareTo(limit.amounts[i]) > 0) {
                exceeded.add(limit.names[i]);
            }
        }
        return exceeded;
    }

    /** Whether every amount the limit lists is at least the amount here. */
    public boolean fitsWithin(ResourceList limit) {
        for (int i = 0; i < limit.names.length; i++) {
            if (amount(limit.names[i]).compareTo(limit.amounts[i]) > 0) {
                return false;
            }
        }
        return true;
    }

    /** This list with every negative amount raised to zero. */
    public ResourceList atLeastZero() {
        if (negativeNames().isEmpty()) {
            return this;
        }
        BigDecimal[] raised = new BigDecimal[amounts.length];
        for (int i = 0; i < amounts.length; i++) {
            raised[i] = amounts[i].max(BigDecimal.ZERO);
        }
        return new ResourceList(names, raised);
    }

    /** The names whose amount is below zero. */
    public List<String> negativeNames() {
        List<String> negative = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            if (amounts[i].signum() < 0) {
                negative.add(names[i]);
            }
        }
        return negative;
    }

    /** The canonical quantity text of one resource, e.g. {@code 4Gi}. */
    public String format(String name) {
        return Quantities.format(name, amount(name));
    }

    /** The list as canonical quantity strings, in name order. */
    @JsonValue
    public Map<String, String> toQuantityStrings() {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            map.put(names[i], Quantities.format(names[i], amounts[i]));
        }
        return map;
    }

    /** The list as fabric8 quantities, for writing Kubernetes objects. */
    public Map<String, Quantity> toQuantities() {
        Map<String, Quantity> map = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            map.put(names[i], Quantities.toQuantity(names[i], amounts[i]));
        }
        return map;
    }

    /** Both lists' names, in order; the operator applied to the two amounts of each (zero for a name one lacks). */
    private ResourceList combine(ResourceList other, BinaryOperator<BigDecimal> operator) {
        if (other.isEmpty()) {
            return this;
        }
        String[] combinedNames = new String[names.length + other.names.length];
        BigDecimal[] combined = new BigDecimal[combinedNames.length];
        int mine = 0;
        int theirs = 0;
        int size = 0;
        while (mine < names.length || theirs < other.names.length) {
            int order = mine == names.length ? 1 : theirs == other.names.length ? -1 : names[mine].compareTo(other.names[theirs]);
            if (order < 0) {
                combinedNames[size] = names[mine];
                combined[size++] = amounts[mine++];
            } else {
                combinedNames[size] = other.names[theirs];
                BigDecimal left = order == 0 ? amounts[mine++] : BigDecimal.ZERO;
                combined[size++] = operator.apply(left, other.amounts[theirs++]).stripTrailingZeros();
            }
        }
        return size == combinedNames.length ? new ResourceList(combinedNames, combined)
                : new ResourceList(Arrays.copyOf(combinedNames, size), Arrays.copyOf(combined, size));
    }

    /** Equal when both name the same resources with numerically equal amounts ({@code 1000m} equals {@code 1}). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ResourceList other) || names.length != other.names.length || hashCode() != other.hashCode()) {
            return false;
        }
        for (int i = 0; i < names.length; i++) {
            if (!names[i].equals(other.names[i]) || amounts[i].compareTo(other.amounts[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int known = hash;
        if (known == 0) {
            for (int i = 0; i < names.length; i++) {
                known += Objects.hash(names[i], amounts[i].stripTrailingZeros());
            }
            hash = known;
        }
        return known;
    }

    /** E.g. {@code cpu=4010m, memory=4Gi}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            if (!text.isEmpty()) {
                text.append(", ");
            }
            text.append(names[i]).append('=').append(Quantities.format(names[i], amounts[i]));
        }
        return text.toString();
    }

    /** The names as a read-only set, in name order, over the list's own array. */
    private final class Names extends AbstractSet<String> {

        @Override
        public Iterator<String> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < names.length;
                }

                @Override
                public String next() {
                    if (next == names.length) {
                        throw new NoSuchElementException();
                    }
                    return names[next++];
                }
            };
        }

        @Override
        public int size() {
            return names.length;
        }

        @Override
        public boolean contains(Object name) {
            return name instanceof String named && indexOf(named) >= 0;
        }
    }
}
