package dev.muster.testing.kafka;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a plain JUnit test a real broker: declare a {@link KafkaBroker} parameter (in a test method,
 * a lifecycle method or the constructor). One broker serves the whole test class and is closed after it.
 */
public final class KafkaBrokerExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NAMESPACE).computeIfAbsent(KafkaBroker.class, type -> KafkaBroker.start(), KafkaBroker.class);
    }
}
