package dev.muster.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class GoDurationsTest {

    @Test
    void readsDurationsAsKubernetesUsersWriteThem() {
        assertThat(GoDurations.parse("500ms")).contains(Duration.ofMillis(500));
        assertThat(GoDurations.parse("1h30m")).contains(Duration.ofMinutes(90));
        assertThat(GoDurations.parse(" 10m ")).contains(Duration.ofMinutes(10));
        assertThat(GoDurations.parse("PT2S")).contains(Duration.ofSeconds(2));
    }

    @Test
    void refusesWhatIsNotADuration() {
        assertThat(GoDurations.parse("soon")).isEmpty();
        assertThat(GoDurations.parse("5x")).isEmpty();
        assertThat(GoDurations.parse("10m later")).isEmpty();
        assertThat(GoDurations.parse("")).isEmpty();
        assertThat(GoDurations.parse("99999999999999999999h")).as("more than a long").isEmpty();
        assertThat(GoDurations.parse("9223372036854775807h")).as("more than a Duration").isEmpty();
        assertThat(GoDurations.parse(null)).isEmpty();
        assertThat(GoDurations.parse("PTsoon")).isEmpty();
    }

    @Test
    void writesGoSpelling() {
        assertThat(GoDurations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(GoDurations.format(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(GoDurations.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(GoDurations.format(Duration.ofHours(24))).isEqualTo("24h");
        assertThat(GoDurations.format(Duration.ZERO)).isEqualTo("0s");
    }
}
