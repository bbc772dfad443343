package dev.muster.statussync.kafka;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

import dev.muster.model.event.Topics;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.statussync.config.Channels;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/** Sends the records status sync cannot take to {@link Topics#DEAD_LETTER}, in the format every service writes. */
@ApplicationScoped
public class DeadLetters {

    static final String SERVICE = "status-sync-service";

    private final Emitter<byte[]> out;
    private final Clock clock = Clock.systemUTC();

    DeadLetters(@Channel(Channels.MEMBER_STATUS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> out) {
        this.out = out;
    }

    void send(Consumed record, String reason) {
        Produced letter = EventProcessor.deadLetter(SERVICE, record, reason, clock);
        out.send(KafkaRecord.of(letter.topic(), letter.key(), letter.value()));
    }
}
