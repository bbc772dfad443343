package dev.muster.testing.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeSoNoListenerOrConnectionIsGivenOneMeanwhile() throws IOException {
        int ephemeralStart = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);

        int port = LoopbackPorts.reserve();

        assertThat(port).isBetween(20_000, ephemeralStart - 1);
    }

    @Test
    void noPortIsHandedOutTwiceEvenOnceItIsFreeAgain() {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(ports.add(LoopbackPorts.reserve())).isTrue();
        }
    }

    @Test
    void aPortTakenByAnotherListenerIsNeverHandedOut() throws IOException {
        int taken = LoopbackPorts.reserve();
        try (ServerSocket listener = new ServerSocket(taken, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 200; i++) {
                int port = LoopbackPorts.reserve();
                assertThat(port).isNotEqualTo(taken);
                try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    assertThat(bound.getLocalPort()).isEqualTo(port);
                }
            }
        }
    }
}
