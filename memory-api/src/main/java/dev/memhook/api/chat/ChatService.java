package dev.memhook.api.chat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * What a chat host exposes so a memory hook can observe and enrich its turns. Hosts implement it
 * over their own chat engine; {@code dev.memhook.testkit.FakeChatService} is a complete reference
 * implementation for tests.
 *
 * <h2>The send loop</h2>
 *
 * {@link #send()} runs one send loop: it fires every {@code beforeSendLoop} callback, sends the
 * conversation (with anything queued) to the model, appends the reply, fires every {@code
 * afterSend} callback, and runs again while {@link #setNeedsResend()} was called during the loop,
 * up to a host-defined bound. Callbacks are awaited in registration order.
 *
 * <p>Implementations must be thread-safe: callbacks complete on Memhook's threads.
 */
public interface ChatService {

  /** A snapshot of the conversation so far, oldest first, including messages already flushed. */
  List<ChatMessage> messages();

  /**
   * Executes the registered tool {@code toolName} silently and queues two messages: the assistant's
   * tool-call message and the tool-result message, both of {@link MessageOrigin#SYNTHETIC} origin.
   * It neither interrupts nor sends: queued messages reach the model with the next loop of a send.
   *
   * @return a stage completing with the tool's result; it completes exceptionally with an {@link
   *     IllegalArgumentException} if no tool of that name is registered
   */
  CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args);

  /** Asks the current send loop to run once more after it ends. Has no effect outside a send. */
  void setNeedsResend();

  /**
   * Stops the send in progress after its current step. With {@code clearQueue}, sends that were
   * waiting behind it are cancelled too. Queued messages are kept: the next {@link #send()} flushes
   * them, so {@code interrupt(true)} then {@code send()} delivers injected messages now.
   */
  void interrupt(boolean clearQueue);

  /** Runs a send loop; completes when the loop (and any resends) has ended. */
  CompletionStage<Void> send();

  /** Registers a callback fired at the start of every send loop. */
  Registration onBeforeSendLoop(ChatCallback callback);

  /** Registers a callback fired after every model reply. */
  Registration onAfterSend(ChatCallback callback);

  /**
   * Registers a tool the model can call.
   *
   * @throws IllegalStateException if a tool of that name is already registered
   */
  Registration registerTool(ToolDefinition definition, ToolHandler handler);
}
