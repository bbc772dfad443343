package dev.muster.runtime.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What a service accepts at most ({@code muster.limits.*}); the defaults are Kubernetes' object size and 10,000 pods per gang. */
@ConfigMapping(prefix = "muster.limits")
public interface LimitsConfig {

    /** The largest manifest or configuration object read, in bytes; a Kafka record may be 64 KiB larger, for its envelope. */
    @WithDefault("1572864")
    int maxObjectBytes();

    /** The most pods one job may have, over all its replica types and in each; a larger gang is refused before any pod is built. */
    @WithDefault("10000")
    int maxPodsPerGang();
}
