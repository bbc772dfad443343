package dev.muster.placement.kafka;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.placement.core.gang.GangPlacer;

/** Wires the plain-Java core into CDI. */
public class PlacementServiceBeans {

    @Produces
    @Singleton
    EventProcessor admissionProcessor() {
        Clock clock = Clock.systemUTC();
        return new EventProcessor("placement-service", Topics.PLACEMENTS, clock, (event -> new GangPlacer(dev.muster.placement.core.binding.PlacementSettings.defaults(), clock).handle(event).events()));
    }
}
