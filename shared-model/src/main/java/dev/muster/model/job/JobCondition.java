package dev.muster.model.job;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One condition of a job ({@code Created}, {@code Running}, {@code Restarting}, {@code Succeeded}, {@code Failed}).
 *
 * @param status {@code True}, {@code False} or {@code Unknown}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobCondition(
        String type,
        String status,
        String reason,
        String message,
        String lastUpdateTime,
        String lastTransitionTime) {
}
