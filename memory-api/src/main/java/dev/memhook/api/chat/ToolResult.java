package dev.memhook.api.chat;

import java.util.Objects;

/**
 * A tool's answer as the model will read it: usually JSON text. An error result is still a result:
 * the model sees it and can correct its call; it is never thrown into the host.
 *
 * @param error whether the call failed
 * @param content the text the model reads
 */
public record ToolResult(boolean error, String content) {

  /** Validates the result. */
  public ToolResult {
    Objects.requireNonNull(content, "content");
  }

  /** A successful result. */
  public static ToolResult success(String content) {
    return new ToolResult(false, content);
  }

  /** A failed result. */
  public static ToolResult failure(String content) {
    return new ToolResult(true, content);
  }
}
