package dev.muster.kubectl;

/** Why a command could not be carried out (Muster unreachable, an object not found), worded for the user. */
final class CommandFailedException extends Exception {

    CommandFailedException(String message) {
        super(message);
    }
}
