package dev.muster.model.event;

/** What the queue service decided of a change to one configuration object: keyed and named by that object. */
public sealed interface ConfigOutcomeData extends ConfigEventData permits ConfigAccepted, ConfigRejected {

    /** The object the change was to. */
    ConfigRef object();

    @Override
    default String subject() {
        return object().subject();
    }

    @Override
    default String key() {
        return object().key();
    }
}
