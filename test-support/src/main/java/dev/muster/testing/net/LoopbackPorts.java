package dev.muster.testing.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out loopback ports for processes that are told their port before they bind it (a broker, a service).
 * <p>
 * A port the operating system chose ({@code new ServerSocket(0)}) and closed again is back in its ephemeral range:
 * until the process it was chosen for binds it, any listener on port 0 or any outgoing connection may be given the
 * same number, and the process then fails with "address in use". The local stack lost a service that way to the
 * fleet API server, which started in between. So these ports come from below the ephemeral range, where the
 * system never assigns on its own, and no port is handed out twice in one JVM.
 */
public final class LoopbackPorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Above the well-known and most registered service ports. */
    private static final int LOWEST = 20_000;
    /** Linux's default start of the ephemeral range, for systems that do not say. */
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 1_000;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private LoopbackPorts() {
    }

    /** A loopback port that is free now, outside the ephemeral range, and not handed out before by this JVM. */
    public static synchronized int reserve() {
        int end = ephemeralStart();
        if (end - LOWEST < 100) {
            return systemChosen();
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
            if (!HANDED_OUT.contains(port) && isFree(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port between " + LOWEST + " and " + end + " after " + ATTEMPTS + " attempts");
    }

    /** Read line by line: procfs reports no size, and a whole-file read of it can stop after the first byte. */
    private static int ephemeralStart() {
        try {
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START;
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Where the ephemeral range leaves no room below it: the system's choice, as before. */
    private static int systemChosen() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = socket.getLocalPort();
            HANDED_OUT.add(port);
            return port;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port", e);
        }
    }
}
