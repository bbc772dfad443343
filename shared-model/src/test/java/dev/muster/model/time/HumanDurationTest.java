package dev.muster.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanDurationTest {

    @ParameterizedTest
    @CsvSource({"-5, <invalid>", "0, 0s", "119, 119s", "120, 2m", "190, 3m10s", "600, 10m", "10799, 179m", "10800, 3h",
            "11700, 3h15m", "28800, 8h", "172800, 2d", "183600, 2d3h", "691200, 8d", "1296000, 15d", "63072000, 2y",
            "65664000, 2y30d", "252460800, 8y"})
    void agesReadAsAKubernetesApiServerWritesThem(long seconds, String age) {
        assertThat(HumanDuration.of(Duration.ofSeconds(seconds))).isEqualTo(age);
    }
}
