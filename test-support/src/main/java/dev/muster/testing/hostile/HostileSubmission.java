package dev.muster.testing.hostile;

import java.util.Optional;

/**
 * One record a hostile or careless producer sends to the submissions topic.
 *
 * @param name   what it is, for the report (a corpus case's name, or the mutations generated)
 * @param key    the record's key; null for none
 * @param value  the record's bytes, as sent
 * @param expect   for a corpus case, what the error it gets must say; empty for a generated one, whose error need only
 *                 be specific, and for a case that is valid after all
 * @param accepted whether the case is a valid job after all, which must be admitted (a corpus case says so)
 */
public record HostileSubmission(String name, String key, byte[] value, Optional<String> expect, boolean accepted) {

    @Override
    public String toString() {
        return name;
    }
}
