package dev.muster.fleetclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;

class ThrottledTokenRefreshTest {

    private final MutableClock clock = new MutableClock();
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void aConfigurationWithoutATokenIsReadAgainAtMostOnceAMinuteHoweverManyRequests() {
        ThrottledTokenRefresh tokens = new ThrottledTokenRefresh(withoutToken(), counted(this::withoutToken), clock);

        for (int request = 0; request < 1_000; request++) {
            clock.advance(Duration.ofMillis(500));
            assertThat(tokens.getToken()).isNull();
        }

        assertThat(reads).hasValue(8);
    }

    @Test
    void aTokenThatChangesAtItsSourceIsUsedFromTheNextRead() {
        ThrottledTokenRefresh tokens = new ThrottledTokenRefresh(withAutoToken("first"), counted(() -> withAutoToken("second")), clock);

        assertThat(tokens.getToken()).isEqualTo("first");
        clock.advance(Duration.ofSeconds(59));
        assertThat(tokens.getToken()).isEqualTo("first");
        clock.advance(Duration.ofSeconds(1));
        assertThat(tokens.getToken()).isEqualTo("second");
    }

    @Test
    void aSourceThatCannotBeReadKeepsTheTokenItHad() {
        ThrottledTokenRefresh tokens = new ThrottledTokenRefresh(withAutoToken("kept"), () -> {
            throw new IllegalStateException("kubeconfig being replaced");
        }, clock);

        clock.advance(Duration.ofMinutes(2));

        assertThat(tokens.getToken()).isEqualTo("kept");
    }

    @Test
    void aTokenTheUserSetIsLeftAloneAsFabric8LeavesIt() {
        Config config = new ConfigBuilder().withMasterUrl("https://fleet.example:6443").withOauthToken("user").build();

        ThrottledTokenRefresh.install(config, this::withoutToken);

        assertThat(config.getOauthTokenProvider()).isNull();
    }

    @Test
    void installedTheClientTakesItsTokenFromTheProvider() {
        Config config = withAutoToken("from-file");

        ThrottledTokenRefresh.install(config, () -> withAutoToken("from-file"));

        assertThat(config.getOauthTokenProvider()).isInstanceOf(ThrottledTokenRefresh.class);
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("from-file");
    }

    private Config withoutToken() {
        return new ConfigBuilder().withMasterUrl("https://member.example:6443").build();
    }

    private Config withAutoToken(String token) {
        Config config = withoutToken();
        config.setAutoOAuthToken(token);
        return config;
    }

    private Supplier<Config> counted(Supplier<Config> source) {
        return () -> {
            reads.incrementAndGet();
            return source.get();
        };
    }

    private static final class MutableClock extends Clock {

        private Instant now = Instant.parse("2026-11-30T12:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
