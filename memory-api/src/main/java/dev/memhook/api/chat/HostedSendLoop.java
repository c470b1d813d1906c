package dev.memhook.api.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The send loop of one {@link HostedChat}, as its class Javadoc describes it: moves the queue in,
 * fires the callbacks, reports the request, calls the model, runs the model's tool calls and loops
 * while a resend is requested, up to the bound.
 *
 * <h2>Design note</h2>
 *
 * Sends are serialised by a chain of futures: each send waits for the one queued before it, then
 * runs on the executor ({@link #enqueue}) or on the calling thread ({@link #runNow}). {@code
 * interrupt(true)} bumps a generation number, so that sends queued before it end without running. A
 * send run now for the host differs in three ways: its request starts from the host's, its first
 * model call is never skipped (the host must get an answer), and the model's tool calls are handed
 * back rather than run here. A send the host opens ({@link #open}) takes its place in the chain the
 * same way and gives it up when closed; between, the host calls the model itself, between the two
 * halves of each loop. The loop blocks on each callback's stage, so that the model is always called
 * on the thread running the send, never on a thread a callback's stage completed on.
 *
 * <p>Thread-safe; callbacks, handlers and the model run outside its lock.
 */
final class HostedSendLoop<M> {

  private final HostedConversation<M> conversation;
  private final MessageMapper<M> mapper;
  private final RegisteredTools tools;
  private final PhaseCallbacks beforeSendLoop;
  private final PhaseCallbacks afterSend;
  private final SubmissionListeners submissions;
  private final int maxLoopsPerSend;
  private final Duration callbackTimeout;
  private final Executor executor;
  private final Object lock = new Object();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final AtomicInteger sendGeneration = new AtomicInteger();
  private final AtomicLong loopsRun = new AtomicLong();

  /** Completes when the last send queued so far has ended; guarded by {@link #lock}. */
  private CompletableFuture<Void> sendTail = CompletableFuture.completedFuture(null);

  /** Guarded by {@link #lock}. */
  private boolean sending;

  HostedSendLoop(
      HostedConversation<M> conversation,
      MessageMapper<M> mapper,
      RegisteredTools tools,
      PhaseCallbacks beforeSendLoop,
      PhaseCallbacks afterSend,
      SubmissionListeners submissions,
      int maxLoopsPerSend,
      Duration callbackTimeout,
      Executor executor) {
    this.conversation = conversation;
    this.mapper = mapper;
    this.tools = tools;
    this.beforeSendLoop = beforeSendLoop;
    this.afterSend = afterSend;
    this.submissions = submissions;
    this.maxLoopsPerSend = maxLoopsPerSend;
    this.callbackTimeout = callbackTimeout;
    this.executor = executor;
  }

  void requestResend() {
    needsResend.set(true);
  }

  long loopsRun() {
    return loopsRun.get();
  }

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
   * Queues a send over the transcript, run on the executor after the sends queued before it.
   *
   * @return a future completing with the model's last reply, with empty if the send was interrupted
   *     before the model answered or cancelled, or exceptionally with the model's failure or the
   *     executor's refusal
   */
  CompletableFuture<Optional<List<M>>> enqueue(ModelCall<M> model) {
    int generation = sendGeneration.get();
    CompletableFuture<Optional<List<M>>> result = new CompletableFuture<>();
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
            result.complete(Optional.empty());
            return;
          }
          try {
            executor.execute(
                () -> {
                  Optional<List<M>> reply;
                  try {
                    conversation.beginTurn(List.of());
                    reply = Optional.ofNullable(runLoops(null, model, true));
                  } catch (Throwable t) {
                    done.complete(null);
                    result.completeExceptionally(t);
                    return;
                  }
                  done.complete(null);
                  result.complete(reply);
                });
          } catch (RuntimeException refused) {
            done.complete(null);
            result.completeExceptionally(refused);
          }
        });
    return result;
  }

  /** Runs one send on the calling thread, after the sends queued before it; see the design note. */
  List<M> runNow(List<M> base, ModelCall<M> model, boolean carryReplies) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    try {
      previous.join();
      conversation.beginTurn(base);
      return runLoops(new ArrayList<>(base), model, carryReplies);
    } finally {
      done.complete(null);
    }
  }

  /**
   * Opens a send the host drives one loop at a time, on the calling thread, after the sends queued
   * before it; see {@link HostedChat#openSend}.
   */
  HostedSend<M> open() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    try {
      previous.join();
      conversation.beginTurn(List.of());
    } catch (RuntimeException e) {
      done.complete(null);
      throw e;
    }
    synchronized (lock) {
      sending = true;
      interrupted.set(false);
    }
    return new HostedSend<>(this, maxLoopsPerSend, () -> endOpenSend(done));
  }

  private void endOpenSend(CompletableFuture<Void> done) {
    synchronized (lock) {
      sending = false;
    }
    done.complete(null);
  }

  /** The first half of a loop of an open send: {@link HostedSend#startLoop()}. */
  void startOpenLoop() {
    startLoop(null);
    conversation.flushQueue(null);
  }

  /** A request of an open send with the pairs placed: {@link HostedSend#withPairs}. */
  List<M> withPairsOpen(List<M> request) {
    return conversation.atTheirTurns(request);
  }

  /** Reports a request of an open send: {@link HostedSend#submitted}. */
  void reportOpen(List<M> request) {
    submissions.report(conversation.carriedBy(List.copyOf(request)));
  }

  /**
   * The second half of a loop of an open send: {@link HostedSend#finishLoop}.
   *
   * @return whether a resend was requested during the loop and the send was not interrupted
   */
  boolean finishOpenLoop(List<M> reply) {
    conversation.appendReply(List.copyOf(reply), null);
    afterSend.fireAndAwait(callbackTimeout);
    return needsResend.get() && !interrupted.get();
  }

  /**
   * Starts a loop: clears the resend request, counts the loop, moves the queue in and runs the
   * {@code beforeSendLoop} callbacks.
   */
  private void startLoop(List<M> request) {
    needsResend.set(false);
    loopsRun.incrementAndGet();
    conversation.flushQueue(request);
    beforeSendLoop.fireAndAwait(callbackTimeout);
  }

  /**
   * Runs the loops of one send on the calling thread.
   *
   * @param request the host's request, or null for a send over the transcript
   * @return the model's last reply, or null if interrupted before the model answered
   */
  private List<M> runLoops(List<M> request, ModelCall<M> model, boolean carryReplies) {
    boolean hostsSend = request != null;
    synchronized (lock) {
      sending = true;
      interrupted.set(false);
    }
    List<M> last = null;
    try {
      for (int number = 1; ; number++) {
        startLoop(request);
        // the host must get an answer, so the first model call of its send is never skipped
        if (interrupted.get() && (!hostsSend || last != null)) {
          return last;
        }
        conversation.flushQueue(request);
        List<M> sent =
            conversation.atTheirTurns(hostsSend ? request : conversation.transcriptMessages());
        // the request goes to the model now: tell the listeners what it carries, in its order
        submissions.report(conversation.carriedBy(sent));
        List<M> reply =
            List.copyOf(
                Objects.requireNonNull(
                    model.call(sent, tools.definitions()), "the model call returned null"));
        last = reply;
        List<HostedConversation.ModelToolCall<M>> calls =
            conversation.appendReply(reply, hostsSend && carryReplies ? request : null);
        if (!calls.isEmpty() && !hostsSend) {
          for (HostedConversation.ModelToolCall<M> c : calls) {
            ToolResult result = answer(c);
            conversation.record(mapper.toolResult(c.call(), result));
          }
          needsResend.set(true);
        }
        afterSend.fireAndAwait(callbackTimeout);
        if (!calls.isEmpty() && hostsSend) {
          // the host runs them and calls the model again: that call is the resend, and the pairs
          // afterSend queued join it
          return last;
        }
        if (!needsResend.get() || interrupted.get() || number >= maxLoopsPerSend) {
          return last;
        }
      }
    } finally {
      synchronized (lock) {
        sending = false;
      }
    }
  }

  /** Runs a call the model made; every failure is an error result the model reads. */
  private ToolResult answer(HostedConversation.ModelToolCall<M> c) {
    Optional<String> unreadable = mapper.unreadableCall(c.message(), c.index());
    if (unreadable.isPresent()) {
      return ToolResult.failure(unreadable.get());
    }
    return executeForModel(tools, c.call()).toCompletableFuture().join();
  }

  /** {@link HostedChat#executeForModel}: never fails. */
  static CompletionStage<ToolResult> executeForModel(RegisteredTools tools, ToolCall call) {
    return tools
        .execute(call)
        .handle(
            (result, error) -> {
              if (error == null) {
                return result;
              }
              Throwable cause = error;
              while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                  && cause.getCause() != null) {
                cause = cause.getCause();
              }
              return ToolResult.failure(
                  "tool "
                      + call.toolName()
                      + " failed: "
                      + Objects.toString(cause.getMessage(), cause.getClass().getSimpleName()));
            });
  }
}
