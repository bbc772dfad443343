package dev.muster.statussync.kafka;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.statussync.config.StatusSyncConfig;
import dev.muster.statussync.core.member.MemberStatusTracker;

/** Wires the plain-Java core into CDI. */
public class StatusSyncServiceBeans {

    @Produces
    @Singleton
    EventProcessor placementProcessor(StatusSyncConfig config) {
        Clock clock = Clock.systemUTC();
        MemberStatusTracker tracker = new MemberStatusTracker(config.members().keySet(), clock);
        return new EventProcessor("status-sync-service", Topics.MEMBER_STATUS, clock, tracker::handle);
    }
}
