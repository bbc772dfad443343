package dev.muster.simulator.spec;

/** Compares dotted version numbers ({@code 1.30.2}, {@code v6.8.0}); a missing part counts as 0. */
final class Versions {

    private Versions() {
    }

    static boolean atLeast(String version, String minimum) {
        if (version == null || version.isBlank()) {
            return false;
        }
        String[] have = version.replaceFirst("^v", "").split("[.-]");
        String[] need = minimum.split("\\.");
        for (int i = 0; i < need.length; i++) {
            int part = i < have.length ? parse(have[i]) : 0;
            int wanted = Integer.parseInt(need[i]);
            if (part != wanted) {
                return part > wanted;
            }
        }
        return true;
    }

    private static int parse(String part) {
        String digits = part.replaceAll("\\D.*$", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }
}
