package dev.muster.runtime;

import java.util.List;

import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;

/**
 * What a service produces for one record it consumed, in the transaction of the record's offset: an
 * {@link EventProcessor} around a decision core, or a step that only passes records on (the queue service's
 * submission gate). Never throws for anything a record holds.
 */
@FunctionalInterface
public interface RecordProcessor {

    List<Produced> process(Consumed record);

    /** What to produce once every record of a batch is processed, in the same transaction: a core's one pass over what the batch changed. */
    default List<Produced> batchEnded() {
        return List.of();
    }
}
