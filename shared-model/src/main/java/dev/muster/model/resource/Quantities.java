package dev.muster.model.resource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Set;

import dev.muster.model.validation.Limits;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * Parses and formats Kubernetes quantities exactly, on top of fabric8's {@link Quantity}.
 * <p>
 * Parsing delegates to fabric8 so that every suffix Kubernetes accepts ({@code m}, {@code k},
 * {@code Ki}…{@code Ei}, {@code e3}, {@code E3}) means the same here. Formatting produces the form a
 * person expects to read back: {@code 4010m}, {@code 4Gi}, {@code 10000000000}.
 */
public final class Quantities {

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigInteger KIBI = BigInteger.valueOf(1024);
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final List<String> DECIMAL_SUFFIXES = List.of("n", "u", "m", "k", "M", "G", "T", "P", "E");
    private static final int[] DECIMAL_EXPONENTS = {-9, -6, -3, 3, 6, 9, 12, 15, 18};
    // Resources Kubernetes counts in bytes: shown with binary suffixes when they divide evenly.
    private static final Set<String> BYTE_RESOURCES = Set.of("memory", "ephemeral-storage", "storage");
    // Beyond these no quantity is within Kubernetes' range, however written; they bound the work of reading one.
    private static final int MAX_EXPONENT = 100;
    private static final int MAX_TEXT_LENGTH = 64;

    private Quantities() {
    }

    /**
     * The exact amount a quantity string stands for.
     *
     * @throws InvalidQuantityException when the text is not a Kubernetes quantity
     */
    public static BigDecimal parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidQuantityException(text == null ? "" : text);
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new InvalidQuantityException(text.substring(0, MAX_TEXT_LENGTH) + "...", "longer than " + MAX_TEXT_LENGTH + " characters");
        }
        Quantity quantity = new Quantity(text.trim());
        BigDecimal amount;
        try {
            // The exponent is checked before fabric8 works the amount out: 1e100000000 would build a number of a hundred
            // million digits. fabric8's own result goes through double for large suffixes, so the exact amount is computed
            // here from the parts fabric8 split it into (an unscaled value and a scale: no digits are written out).
            amount = new BigDecimal(quantity.getAmount()).multiply(multiplier(quantity.getFormat()));
        } catch (ArithmeticException e) {
            throw outOfRange(text);
        } catch (RuntimeException e) {
            throw new InvalidQuantityException(text);
        }
        if (amount.abs().compareTo(Limits.MAX_QUANTITY) > 0) {
            throw outOfRange(text);
        }
        return amount.stripTrailingZeros();
    }

    private static InvalidQuantityException outOfRange(String text) {
        return new InvalidQuantityException(text, "must be at most " + Limits.MAX_QUANTITY.toPlainString() + " (2^63-1), as in Kubernetes");
    }

    private static BigDecimal multiplier(String suffix) {
        if (suffix == null || suffix.isEmpty()) {
            return BigDecimal.ONE;
        }
        int binary = List.of(BINARY_SUFFIXES).indexOf(suffix);
        if (binary > 0) {
            return new BigDecimal(KIBI.pow(binary));
        }
        int decimal = DECIMAL_SUFFIXES.indexOf(suffix);
        if (decimal >= 0) {
            return BigDecimal.ONE.scaleByPowerOfTen(DECIMAL_EXPONENTS[decimal]);
        }
        if (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E') {
            int exponent = Integer.parseInt(suffix.substring(1));
            if (Math.abs(exponent) > MAX_EXPONENT) {
                throw new ArithmeticException("exponent " + exponent + " out of range");
            }
            return BigDecimal.ONE.scaleByPowerOfTen(exponent);
        }
        throw new IllegalArgumentException("unknown quantity suffix " + suffix);
    }

    /** The exact amount of a fabric8 quantity. */
    public static BigDecimal parse(Quantity quantity) {
        if (quantity == null) {
            throw new InvalidQuantityException("");
        }
        return parse(quantity.toString());
    }

    /** The canonical text of an amount of the named resource, e.g. {@code 4Gi} for memory, {@code 4010m} for cpu. */
    public static String format(String resource, BigDecimal amount) {
        BigDecimal value = amount.stripTrailingZeros();
        if (value.signum() == 0) {
            return "0";
        }
        if (isByteResource(resource) && isInteger(value)) {
            return binary(value.toBigIntegerExact());
        }
        if (isInteger(value)) {
            return value.toBigIntegerExact().toString();
        }
        BigDecimal milli = value.multiply(THOUSAND);
        if (isInteger(milli)) {
            return milli.toBigIntegerExact() + "m";
        }
        return value.toPlainString();
    }

    /** The amount as a fabric8 quantity in canonical form. */
    public static Quantity toQuantity(String resource, BigDecimal amount) {
        return new Quantity(format(resource, amount));
    }

    private static boolean isByteResource(String resource) {
        return BYTE_RESOURCES.contains(resource) || resource.startsWith("hugepages-");
    }

    private static boolean isInteger(BigDecimal value) {
        return value.signum() == 0 || value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0;
    }

    private static String binary(BigInteger bytes) {
        BigInteger mantissa = bytes;
        int exponent = 0;
        while (exponent < BINARY_SUFFIXES.length - 1 && mantissa.signum() != 0
                && mantissa.mod(KIBI).signum() == 0) {
            mantissa = mantissa.divide(KIBI);
            exponent++;
        }
        return mantissa + BINARY_SUFFIXES[exponent];
    }
}
