package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.memhook.api.chat.SubmissionListeners;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The send loop of one {@link LangChain4jChatService}, as its class Javadoc describes it: moves the
 * queue in, fires the callbacks, calls the model, executes the model's tool calls and loops while a
 * resend is requested, up to a bound.
 *
 * <h2>Design note</h2>
 *
 * Sends are serialised by a chain of futures: each send waits for the one queued before it, then
 * runs on the executor (or, for AiServices, on the calling thread). {@code interrupt(true)} bumps a
 * generation number, so that sends queued before it end without running. A send for AiServices
 * differs in three ways: its base is the request AiServices built, its first model call is never
 * skipped (AiServices must get an answer), and the model's tool calls are returned for AiServices
 * to execute rather than executed here; the reply returned is recorded as handed over, so that
 * AiServices' own add of it is skipped.
 *
 * <p>Each model call, of either kind of send, is reported to the {@code onRequestSubmitted}
 * listeners right before it is made, with the Memhook messages of the request it makes; a loop that
 * ends before its model call reports nothing.
 *
 * <p>Thread-safe; callbacks, handlers and the model run outside its lock.
 */
final class SendLoop {

  private final ChatModel model;
  private final int maxLoopsPerSend;
  private final Executor executor;
  private final ConversationState conversation;
  private final ToolRegistry tools;
  private final Callbacks beforeSendLoop;
  private final Callbacks afterSend;
  private final SubmissionListeners submissions;
  private final Object lock = new Object();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final AtomicInteger sendGeneration = new AtomicInteger();

  /** Completes when the last send queued so far has ended; guarded by {@link #lock}. */
  private CompletableFuture<Void> sendTail = CompletableFuture.completedFuture(null);

  /** Guarded by {@link #lock}. */
  private boolean sending;

  SendLoop(
      ChatModel model,
      int maxLoopsPerSend,
      Executor executor,
      ConversationState conversation,
      ToolRegistry tools,
      Callbacks beforeSendLoop,
      Callbacks afterSend,
      SubmissionListeners submissions) {
    this.model = model;
    this.maxLoopsPerSend = maxLoopsPerSend;
    this.executor = executor;
    this.conversation = conversation;
    this.tools = tools;
    this.beforeSendLoop = beforeSendLoop;
    this.afterSend = afterSend;
    this.submissions = submissions;
  }

  /** Asks the running loop, if any, for one more loop. */
  void requestResend() {
    needsResend.set(true);
  }

  /**
   * Ends the running send after its current step; with {@code clearQueue}, sends queued but not
   * started end without running.
   */
  void interrupt(boolean clearQueue) {
    synchronized (lock) {
      if (sending) {
        interrupted.set(true);
      }
      if (clearQueue) {
        sendGeneration.incrementAndGet();
      }
    }
  }

  /**
   * Queues a send of the service's own, run on the executor after the sends queued before it.
   *
   * @return a future completing with the model's last response, with null if the send was
   *     interrupted before the model answered or cancelled, or exceptionally with the model's
   *     failure or the executor's refusal
   */
  CompletableFuture<ChatResponse> enqueue() {
    int generation = sendGeneration.get();
    CompletableFuture<ChatResponse> result = new CompletableFuture<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    previous.whenComplete(
        (ignored, error) -> {
          if (sendGeneration.get() != generation) {
            done.complete(null); // cancelled by interrupt(true)
            result.complete(null);
            return;
          }
          try {
            executor.execute(
                () -> {
                  ChatResponse response;
                  try {
                    response = runLoops(null, model::chat);
                  } catch (Throwable t) {
                    done.complete(null);
                    result.completeExceptionally(t);
                    return;
                  }
                  done.complete(null);
                  result.complete(response);
                });
          } catch (RuntimeException refused) {
            done.complete(null);
            result.completeExceptionally(refused);
          }
        });
    return result;
  }

  /**
   * Runs one send for AiServices on the calling thread, after the sends queued before it; see the
   * design note.
   */
  ChatResponse runForAiServices(ChatRequest request, Function<ChatRequest, ChatResponse> invoker) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    try {
      previous.join();
      return runLoops(request, invoker);
    } finally {
      done.complete(null);
    }
  }

  /**
   * Runs the loops of one send on the calling thread.
   *
   * @param external the request AiServices built, or null for a send of the service's own
   * @return the model's last response, or null if interrupted before the model answered
   */
  private ChatResponse runLoops(ChatRequest external, Function<ChatRequest, ChatResponse> invoker) {
    List<dev.langchain4j.data.message.ChatMessage> requestMessages =
        external == null ? null : new ArrayList<>(external.messages());
    synchronized (lock) {
      sending = true;
      interrupted.set(false);
    }
    ChatResponse last = null;
    try {
      for (int number = 1; ; number++) {
        needsResend.set(false);
        conversation.flushQueue(requestMessages);
        beforeSendLoop.fire();
        // AiServices must get an answer, so its first model call is never skipped
        if (interrupted.get() && (external == null || last != null)) {
          return handOver(last, external);
        }
        conversation.flushQueue(requestMessages);
        ChatRequest request =
            external == null
                ? conversation.request(tools.specifications())
                : ChatRequest.builder()
                    .messages(List.copyOf(requestMessages))
                    .parameters(external.parameters())
                    .build();
        // the request goes to the model now: tell the listeners what it carries, in its order
        submissions.report(conversation.carriedBy(request.messages()));
        ChatResponse response = invoker.apply(request);
        AiMessage reply = Objects.requireNonNull(response.aiMessage(), "the model gave no message");
        last = response;
        conversation.appendReply(reply, requestMessages);
        boolean toolCalls = reply.hasToolExecutionRequests();
        if (toolCalls && external == null) {
          for (ToolExecutionRequest call : reply.toolExecutionRequests()) {
            ToolResult result = Stages.await(tools.executeForModel(call));
            ToolExecutionResultMessage message =
                MessageMapping.resultMessage(call, result, Map.of());
            conversation.appendToolResult(message);
          }
          needsResend.set(true);
        }
        afterSend.fire();
        if (toolCalls && external != null) {
          // AiServices executes them and calls the model again: that call is the resend, and the
          // pairs afterSend queued join it after the tool results
          return handOver(response, external);
        }
        if (!needsResend.get() || interrupted.get() || number >= maxLoopsPerSend) {
          return handOver(response, external);
        }
      }
    } finally {
      synchronized (lock) {
        sending = false;
      }
    }
  }

  private ChatResponse handOver(ChatResponse response, ChatRequest external) {
    if (external != null && response != null) {
      conversation.handOver(response.aiMessage());
    }
    return response;
  }
}
