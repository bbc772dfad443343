package dev.muster.runtime;

import java.util.concurrent.CompletableFuture;

import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;

/** A record sent on an emitter's channel, as a future: done once the broker has it, failed when the producer gave it up. */
public final class Acknowledged {

    private Acknowledged() {
    }

    /** Sends the record; {@code onAcknowledged} runs once the broker has it, before the future completes. */
    public static CompletableFuture<Void> send(Emitter<byte[]> channel, Message<byte[]> record, Runnable onAcknowledged) {
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        channel.send(record.withAck(() -> {
            onAcknowledged.run();
            acknowledged.complete(null);
            return CompletableFuture.completedFuture(null);
        }).withNack(failure -> {
            acknowledged.completeExceptionally(failure);
            return CompletableFuture.completedFuture(null);
        }));
        return acknowledged;
    }
}
