package dev.muster.simulator.time;

import java.time.Duration;

/**
 * How fast simulated time runs: at speed 60 a pod that runs for an hour finishes in a minute, a 10-minute
 * reservation TTL lasts 10 seconds. Timestamps written to the API stay wall-clock time; only waits shrink.
 */
public record SimulatedTime(double speed) {

    /** Real time. */
    public static final SimulatedTime REAL = new SimulatedTime(1);

    public SimulatedTime {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("time speed must be a positive number, got " + speed);
        }
    }

    /** How long a simulated duration takes in real time. */
    public Duration real(Duration simulated) {
        return speed == 1 ? simulated : Duration.ofNanos((long) (simulated.toNanos() / speed));
    }
}
