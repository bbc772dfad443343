package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class FencedProducerTest {

    @Test
    void aProducerFencedOrOfAnOldEpochIsFencedForGoodHoweverDeepTheCause() {
        assertThat(FencedProducer.isFenced(new ProducerFencedException("There is a newer producer"))).isTrue();
        // How the producer reports every call once it is in its error state.
        assertThat(FencedProducer.isFenced(new KafkaException("Cannot execute transactional method because we are in an error state",
                new ProducerFencedException("fenced")))).isTrue();
        assertThat(FencedProducer.isFenced(new IllegalStateException(new InvalidProducerEpochException("epoch")))).isTrue();
    }

    @Test
    void aFailureARetryCuresIsNotFenced() {
        assertThat(FencedProducer.isFenced(new TimeoutException("Timeout expired while awaiting InitProducerId"))).isFalse();
        assertThat(FencedProducer.isFenced(new IllegalStateException("SRMSG18025: Partition rebalance during exactly-once processing"))).isFalse();
    }
}
