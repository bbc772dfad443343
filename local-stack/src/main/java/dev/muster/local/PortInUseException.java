package dev.muster.local;

/** A port the stack must listen on is taken by another process. */
public final class PortInUseException extends IllegalStateException {

    public PortInUseException(int port, String what) {
        super("port " + port + " (" + what + ") is in use: stop what listens there, or start with --port-base N"
                + " to move the services to N+1, N+2, N+3");
    }
}
