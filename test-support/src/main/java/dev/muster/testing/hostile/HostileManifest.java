package dev.muster.testing.hostile;

import java.util.Optional;

/**
 * One PyTorchJob a hostile or careless user creates on the fleet API, as {@code kubectl create} sends it: JSON bytes
 * posted to a namespace's jobs.
 *
 * @param name      what it is, for the report (a corpus case's name, or the mutations generated)
 * @param namespace the namespace the request is sent to
 * @param body      the request's bytes, as sent
 * @param expect    for a corpus case, what the API server's refusal must say; empty for a generated one, whose refusal
 *                  need only be specific, and for a case that is valid after all
 * @param accepted  whether the case is a valid job after all, which must be created (a corpus case says so)
 */
public record HostileManifest(String name, String namespace, byte[] body, Optional<String> expect, boolean accepted) {

    @Override
    public String toString() {
        return name;
    }
}
