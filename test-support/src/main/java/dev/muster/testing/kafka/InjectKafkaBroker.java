package dev.muster.testing.kafka;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a {@link KafkaBroker} field of a {@code @QuarkusTest} to receive the broker {@link KafkaBrokerTestResource} started. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectKafkaBroker {
}
