package dev.muster.queue.core.quota;

import java.time.Instant;

/**
 * One queue's depth and its longest-waiting job's submission time.
 *
 * @param oldestSubmitted null when the queue is empty
 */
public record QueueSummary(String leaf, String queue, int depth, Instant oldestSubmitted) {
}
