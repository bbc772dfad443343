package dev.muster.model.resource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
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
 */
public final class ResourceList {

    private static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

    private final SortedMap<String, BigDecimal> amounts;
    /** The hash once worked out (0 until then), as {@link String} keeps its own: lists are keys of hot maps. */
    private int hash;

    private ResourceList(SortedMap<String, BigDecimal> amounts) {
        this.amounts = Collections.unmodifiableSortedMap(amounts);
    }

    public static ResourceList empty() {
        return EMPTY;
    }

    /** One resource with the given amount. */
    public static ResourceList of(String name, BigDecimal amount) {
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        map.put(requireName(name), amount.stripTrailingZeros());
        return new ResourceList(map);
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
        return new ResourceList(map);
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
        return new ResourceList(map);
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

    /** The amount of the named resource; zero when absent. */
    public BigDecimal amount(String name) {
        return amounts.getOrDefault(name, BigDecimal.ZERO);
    }

    /** Whether the list names this resource (with any amount, zero included). */
    public boolean names(String name) {
        return amounts.containsKey(name);
    }

    public Set<String> names() {
        return amounts.keySet();
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    /** The sum of the lists, as adding them one by one gives, without a list made per step. */
    public static ResourceList sum(Iterable<ResourceList> lists) {
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        for (ResourceList list : lists) {
            list.amounts.forEach((name, amount) -> map.merge(name, amount, BigDecimal::add));
        }
        map.replaceAll((name, amount) -> amount.stripTrailingZeros());
        return map.isEmpty() ? EMPTY : new ResourceList(map);
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
        TreeMap<String, BigDecimal> map = new TreeMap<>();
        BigDecimal multiplier = BigDecimal.valueOf(factor);
        amounts.forEach((name, amount) -> map.put(name, amount.multiply(multiplier).stripTrailingZeros()));
        return new ResourceList(map);
    }

    /** This list with one resource set to the given amount. */
    public ResourceList with(String name, BigDecimal amount) {
        TreeMap<String, BigDecimal> map = new TreeMap<>(amounts);
        map.put(requireName(name), amount.stripTrailingZeros());
        return new ResourceList(map);
    }

    /**
     * The names, among those the limit lists, whose amount here is greater than the limit's.
     * Names the limit does not list are not limited.
     */
    public List<String> exceeding(ResourceList limit) {
        List<String> exceeded = new ArrayList<>();
        limit.amounts.forEach((name, max) -> {
            if (amount(name).compareTo(max) > 0) {
                exceeded.add(name);
            }
        });
        return exceeded;
    }

    /** Whether every amount the limit lists is at least the amount here. */
    public boolean fitsWithin(ResourceList limit) {
        return exceeding(limit).isEmpty();
    }

    /** This list with every negative amount raised to zero. */
    public ResourceList atLeastZero() {
        if (negativeNames().isEmpty()) {
            return this;
        }
        TreeMap<String, BigDecimal> map = new TreeMap<>(amounts);
        map.replaceAll((name, amount) -> amount.max(BigDecimal.ZERO));
        return new ResourceList(map);
    }

    /** The names whose amount is below zero. */
    public List<String> negativeNames() {
        List<String> negative = new ArrayList<>();
        amounts.forEach((name, amount) -> {
            if (amount.signum() < 0) {
                negative.add(name);
            }
        });
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
        amounts.forEach((name, amount) -> map.put(name, Quantities.format(name, amount)));
        return map;
    }

    /** The list as fabric8 quantities, for writing Kubernetes objects. */
    public Map<String, Quantity> toQuantities() {
        Map<String, Quantity> map = new LinkedHashMap<>();
        amounts.forEach((name, amount) -> map.put(name, Quantities.toQuantity(name, amount)));
        return map;
    }

    private ResourceList combine(ResourceList other, BinaryOperator<BigDecimal> operator) {
        if (other.isEmpty()) {
            return this;
        }
        TreeMap<String, BigDecimal> map = new TreeMap<>(amounts);
        other.amounts.forEach((name, amount) ->
                map.put(name, operator.apply(map.getOrDefault(name, BigDecimal.ZERO), amount).stripTrailingZeros()));
        return new ResourceList(map);
    }

    /** Equal when both name the same resources with numerically equal amounts ({@code 1000m} equals {@code 1}). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ResourceList other) || amounts.size() != other.amounts.size() || hashCode() != other.hashCode()) {
            return false;
        }
        // Both maps are sorted by name: walk them side by side rather than look each name up.
        var others = other.amounts.entrySet().iterator();
        for (Map.Entry<String, BigDecimal> entry : amounts.entrySet()) {
            Map.Entry<String, BigDecimal> otherEntry = others.next();
            if (!entry.getKey().equals(otherEntry.getKey()) || entry.getValue().compareTo(otherEntry.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int known = hash;
        if (known == 0) {
            for (Map.Entry<String, BigDecimal> entry : amounts.entrySet()) {
                known += Objects.hash(entry.getKey(), entry.getValue().stripTrailingZeros());
            }
            hash = known;
        }
        return known;
    }

    /** E.g. {@code cpu=4010m, memory=4Gi}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        amounts.forEach((name, amount) -> {
            if (!text.isEmpty()) {
                text.append(", ");
            }
            text.append(name).append('=').append(Quantities.format(name, amount));
        });
        return text.toString();
    }
}
