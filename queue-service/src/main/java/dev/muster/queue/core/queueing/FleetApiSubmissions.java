package dev.muster.queue.core.queueing;

import java.util.List;


/**
 * The jobs with an object on the fleet API (applied there, or submitted on Kafka and shown there) that the queue holds
 * until their deletion, for whatever watches the fleet API.
 */
@FunctionalInterface
public interface FleetApiSubmissions {

    /** Those not deleted yet, as far as the queue has read its inputs. */
    List<FleetApiJob> undeleted();
}
