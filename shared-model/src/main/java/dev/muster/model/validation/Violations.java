package dev.muster.model.validation;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.muster.model.resource.InvalidResourceException;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Quantity;

/** Collects the violations a validator finds, so that one pass reports every problem, not only the first. */
public final class Violations {

    private final List<Violation> found = new ArrayList<>();

    public void add(String path, String message) {
        found.add(new Violation(path, message));
    }

    /**
     * Reads a map of quantities, reporting each one that cannot be parsed or is negative.
     *
     * @return the parsed list of the valid entries
     */
    public ResourceList quantities(String path, Map<String, Quantity> quantities) {
        ResourceList parsed = ResourceList.empty();
        if (quantities == null) {
            return parsed;
        }
        for (Map.Entry<String, Quantity> entry : quantities.entrySet()) {
            String name = entry.getKey();
            if (entry.getValue() == null) {
                add(path + "." + name, "cannot parse quantity \"\"");
                continue;
            }
            try {
                ResourceList one = ResourceList.fromQuantities(Map.of(name, entry.getValue()));
                BigDecimal amount = one.amount(name);
                if (amount.signum() < 0) {
                    add(path + "." + name, "must not be negative, got " + entry.getValue());
                } else {
                    parsed = parsed.plus(one);
                }
            } catch (InvalidResourceException e) {
                add(path + "." + name, e.reason());
            }
        }
        return parsed;
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    public List<Violation> list() {
        return List.copyOf(found);
    }
}
