package dev.memhook.api.chat;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What a chat host exposes so a memory hook can observe and enrich its turns. Hosts on LangChain4j
 * or Spring AI use the adapters ({@code memory-langchain4j}, {@code memory-spring-ai}), which
 * implement it; a host on another stack builds a {@link HostedChat}, which implements all of it
 * from the host's {@link MessageMapper} and {@link ModelCall}. {@code
 * dev.memhook.testkit.FakeChatService} is a complete reference implementation, and {@code
 * dev.memhook.testkit.ChatServiceContract} is the test suite an implementation should pass.
 *
 * <h2>The send loop</h2>
 *
 * {@link #send()} runs one send loop: it fires every {@code beforeSendLoop} callback, sends the
 * conversation (with anything queued) to the model, appends the reply, fires every {@code
 * afterSend} callback, and runs again while {@link #setNeedsResend()} was called during the loop,
 * up to a host-defined bound. Callbacks are awaited in registration order.
 *
 * <h2>What a host must do</h2>
 *
 * <ol>
 *   <li><b>Show the user's message before the loop.</b> The user's new message must be in {@link
 *       #messages()}, with {@link ChatRole#USER} role and {@link MessageOrigin#USER} origin,
 *       <em>before</em> the {@code beforeSendLoop} callbacks fire: that is the only moment a hook
 *       recalls for it. A host that queues the input and flushes it after the callbacks gets no
 *       memories for that turn; a hook notices it after the reply and logs one warning.
 *   <li><b>Await every returned stage.</b> A callback returns at once with a {@link
 *       java.util.concurrent.CompletionStage}; the host must not call the model until every {@code
 *       beforeSendLoop} stage has completed, nor end the loop until every {@code afterSend} stage
 *       has: what a hook injects is queued by then. A hook's stage always completes normally, and
 *       within its recall timeout plus the time {@link #injectToolCall} takes.
 *   <li><b>Send what was queued.</b> Messages queued by {@link #injectToolCall} join the
 *       conversation and reach the model in the request of the current loop (or the next {@link
 *       #send()} when queued outside one), the tool call immediately followed by its result. A host
 *       whose provider wants the user's turn last may place a pair queued by {@code beforeSendLoop}
 *       just before that loop's user message; it must keep the pair in the conversation for later
 *       requests, since a hook injects each memory once.
 *   <li><b>Honour a resend.</b> {@link #setNeedsResend()} during an {@code afterSend} callback asks
 *       for one more loop, so the model reads what was injected after its reply.
 *   <li><b>Offer registered tools and run the model's calls.</b> Every tool from {@link
 *       #registerTool} is offered to the model; a call the model makes is executed with the
 *       registered handler and its result sent back to the model (a failed stage becomes an error
 *       result the model reads, never an exception into the host's turn).
 * </ol>
 *
 * <h2>Which messages a hook reads</h2>
 *
 * {@code beforeSendLoop} scans the user messages ({@code USER} role and origin) it has not scanned
 * before; {@code afterSend} scans the model's new {@link ChatRole#REASONING} messages of {@link
 * MessageOrigin#MODEL} origin. Synthetic messages are never scanned. A hook attached to a
 * conversation already under way starts from its latest user message. With capture on, a hook also
 * captures user messages, the model's answers and tool calls with their results, never its own
 * {@code get_memory} pairs.
 *
 * <h2>Threads</h2>
 *
 * Implementations must be thread-safe: a hook's callback stage may complete on Memhook's threads
 * (the service's recall executor) rather than the thread that fired it, and {@link #injectToolCall}
 * and {@link #setNeedsResend()} are called from there. The {@code get_memory} handler answers on
 * the thread that calls it, with no network and no model call. A hook never blocks the thread that
 * fires its callback. The host may run its own tools on any thread.
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
   * Registers a listener told of every request this chat service actually submits to the model,
   * before the model answers: its attempt id and the messages it carried. Memory hooks use it to
   * record which requests carried what they injected ({@link
   * dev.memhook.api.trace.InjectionReceipt}); a request prepared and never sent must not be
   * reported. The listener must be called on the submitting thread or in submission order, and what
   * it throws must not fail the submission.
   *
   * <p>The default reports nothing and returns empty: receipts then say delivery is unknown, rather
   * than guess.
   *
   * @return the registration, or empty when this chat service does not report submissions
   */
  default Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    Objects.requireNonNull(listener, "listener");
    return Optional.empty();
  }

  /**
   * Registers a tool the model can call.
   *
   * @throws IllegalStateException if a tool of that name is already registered
   */
  Registration registerTool(ToolDefinition definition, ToolHandler handler);
}
