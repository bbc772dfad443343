package dev.muster.placement.core.gang;

import java.time.Instant;
import java.util.Map;

import dev.muster.model.event.JobEvent;

/** A job that fits nowhere now, since {@code since}; tried again from {@code notBefore}, and why each cluster refused it. */
record Waiting(JobEvent admitted, Instant since, int tries, Instant notBefore, Map<String, String> reasons) {

    String uid() {
        return admitted.job().uid();
    }
}
