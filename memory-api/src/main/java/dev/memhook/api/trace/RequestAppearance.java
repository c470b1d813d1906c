package dev.memhook.api.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * One request a chat service submitted to the model that carried an injected pair.
 *
 * <p>Immutable and thread-safe.
 *
 * @param attemptId the chat service's id of the submitted request
 * @param callMessageId the id of the pair's tool-call message in it
 * @param resultMessageId the id of the pair's tool-result message in it
 * @param at when the hook heard of the submission
 */
public record RequestAppearance(
    String attemptId, String callMessageId, String resultMessageId, Instant at) {

  /** Validates the appearance. */
  public RequestAppearance {
    Objects.requireNonNull(attemptId, "attemptId");
    Objects.requireNonNull(callMessageId, "callMessageId");
    Objects.requireNonNull(resultMessageId, "resultMessageId");
    Objects.requireNonNull(at, "at");
  }
}
