package dev.memhook.core.internal.capture;

import com.google.common.hash.Hashing;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.core.internal.failure.FatalErrors;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Captures a hooked conversation through the capture pipeline: each user message as a prompt, each
 * answer of the model as an agent response, each tool call together with its result as a tool use.
 *
 * <p>What it never captures: messages of {@link MessageOrigin#SYNTHETIC} origin (the hook's own
 * injected {@code get_memory} pair among them), any {@code get_memory} call or result (a memory
 * must not feed on itself), system messages and the model's reasoning. Each message is captured
 * once: this object remembers the ids it has handled, and each event carries the message id as its
 * event id, so the pipeline stores a message once even when a new hook captures the same
 * conversation again (message ids must then be stable, as the chat service's are). A tool call
 * whose result has not arrived yet is left for a later scan. A tool call's arguments are recorded
 * as JSON ({@link ToolArgumentsJson}: iterative, nesting cut), however deep they nest.
 *
 * <p>A conversation has no end event: its session ends when the service closes ({@code
 * CaptureOptions.endSessionsOnClose}), as {@code CLOSED}, or when it is idle past the timeout. A
 * later hook on the same conversation, in a later lifetime, captures into the same session, which
 * is then active again: a new segment of it, ended in turn.
 *
 * <p>Never throws, short of a {@linkplain FatalErrors fatal} error: a message that cannot be
 * captured (invalid, or anything its capture throws, an {@link Error} included) is logged and
 * skipped, once, and the others are captured.
 *
 * <p>Not thread-safe: the hook calls it under its callback lock.
 */
public final class ConversationCapture {

  private static final Logger LOG = LoggerFactory.getLogger(ConversationCapture.class);

  /** The project every captured conversation's session names. */
  public static final String PROJECT = "chat";

  /** The working directory every captured conversation's session names. */
  public static final String CWD = "-";

  private final CapturePipeline pipeline;
  private final Scope scope;
  private final String memoryTool;
  private final String userName;
  private final String assistantName;
  private String sessionId;
  private final Set<String> handled = new HashSet<>();

  /**
   * Captures into {@code pipeline} as {@code options} say: into their capture scope, under the
   * hook's tool name (whose calls are never captured), naming the user and the assistant as they
   * do. Their session id, when they have none, is derived from the id of the conversation's first
   * message, so every hook on one conversation, in any lifetime of the service, captures into the
   * same session (and a message captured before is recognised).
   */
  public ConversationCapture(CapturePipeline pipeline, HookOptions options) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(options, "options");
    this.scope = options.captureScope();
    this.memoryTool = options.toolName();
    this.userName = options.userName();
    this.assistantName = options.assistantName();
    this.sessionId = options.sessionId();
  }

  /**
   * The session captured messages go to, or null before the first capture when it is named after
   * the conversation's first message.
   */
  public String sessionId() {
    return sessionId;
  }

  /**
   * Captures the messages of {@code conversation} not captured yet. Never throws, short of a
   * {@linkplain FatalErrors fatal} error.
   */
  public void capture(List<ChatMessage> conversation) {
    if (conversation.isEmpty()) {
      return;
    }
    if (sessionId == null) {
      String first = conversation.get(0).id();
      sessionId =
          "chat-"
              + (first.length() <= 150
                  ? first
                  : Hashing.sha256().hashString(first, StandardCharsets.UTF_8).toString());
    }
    Map<String, ChatMessage> results = new HashMap<>();
    for (ChatMessage m : conversation) {
      if (m.role() == ChatRole.TOOL_RESULT) {
        results.putIfAbsent(m.toolCall().id(), m);
      }
    }
    for (ChatMessage m : conversation) {
      if (handled.contains(m.id())) {
        continue;
      }
      try {
        captureOne(m, results);
      } catch (Throwable t) {
        FatalErrors.rethrowIfFatal(t);
        handled.add(m.id()); // it would fail again: never retried
        LOG.warn("memhook: message {} was not captured", m.id(), t);
      }
    }
  }

  /** Captures {@code m} unless it is skipped or waits for its result; marks what it handled. */
  private void captureOne(ChatMessage m, Map<String, ChatMessage> results) {
    if (skipped(m)) {
      handled.add(m.id());
      return;
    }
    EventData data;
    LifecycleEventType type;
    switch (m.role()) {
      case USER -> {
        type = LifecycleEventType.PROMPT_SUBMIT;
        data = EventData.prompt(m.text()).withSpeaker(userName);
      }
      case ASSISTANT -> {
        type = LifecycleEventType.AGENT_RESPONSE;
        data = EventData.message(m.text()).withSpeaker(assistantName);
      }
      case TOOL_CALL -> {
        ChatMessage result = results.get(m.toolCall().id());
        if (result == null) {
          return; // its result comes later: capture the pair then
        }
        handled.add(result.id());
        type = LifecycleEventType.POST_TOOL_USE;
        data = EventData.tool(m.toolCall().toolName(), arguments(m), result.text());
      }
      case TOOL_RESULT -> {
        // a result whose call is not in the conversation any more
        type = LifecycleEventType.POST_TOOL_USE;
        data = EventData.tool(m.toolCall().toolName(), arguments(m), m.text());
      }
      default -> {
        handled.add(m.id());
        return;
      }
    }
    handled.add(m.id());
    submit(type, data, m.id());
  }

  private boolean skipped(ChatMessage m) {
    if (m.origin() == MessageOrigin.SYNTHETIC) {
      return true;
    }
    if (m.role() == ChatRole.SYSTEM || m.role() == ChatRole.REASONING) {
      return true;
    }
    if (m.toolCall() != null && memoryTool.equals(m.toolCall().toolName())) {
      return true;
    }
    return m.text().isBlank() && m.toolCall() == null;
  }

  private static String arguments(ChatMessage m) {
    return ToolArgumentsJson.of(m.toolCall().arguments());
  }

  private void submit(LifecycleEventType type, EventData data, String messageId) {
    LifecycleEvent event =
        LifecycleEvent.builder(type, sessionId)
            .project(PROJECT)
            .cwd(CWD)
            .eventId("message:" + messageId)
            .data(data)
            .build();
    try {
      pipeline.observeFromHook(event, scope);
    } catch (RuntimeException e) {
      // an invalid message (a tool name over its limit, say) is not captured; the turn goes on
      LOG.debug("memhook: message {} was not captured: {}", messageId, e.getMessage());
    }
  }
}
