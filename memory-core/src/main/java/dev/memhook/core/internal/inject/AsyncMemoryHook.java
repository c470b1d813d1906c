package dev.memhook.core.internal.inject;

import com.ibm.asyncutil.locks.AsyncLock;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.core.internal.capture.ConversationCapture;
import dev.memhook.core.internal.failure.FatalErrors;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook contract, in one class.
 *
 * <h2>Design note</h2>
 *
 * Both callbacks run under one fair {@link AsyncLock}, so they never interleave and the tracking
 * set needs no further coordination: under the lock a callback (1) takes the messages it has not
 * scanned yet that match its phase (user messages before the loop, model reasoning after a reply),
 * (2) recalls for each on the service's executor, bounded by the recall timeout (a recall whose
 * callback gave up, by timeout or disposal, is skipped if it has not started; the messages of a
 * recall that timed out are scanned again by the next callback, once: {@link RecallRetries}), (3)
 * drops ids already injected, caps the rest, records them, and (4) injects them in one {@code
 * get_memory} call, unless the hook was disposed meanwhile: that last look and the injection's
 * start share a monitor with {@link #dispose()}, so once dispose() returns no injection starts, and
 * callbacks still waiting for the lock find the hook disposed. Only {@code afterSend} asks for a
 * resend, and only when it injected. The lock is released on every path, and the returned stage
 * always completes: failures and timeouts go to the receipt, the listener and the log, never to the
 * host. Whatever a callback's work throws is caught, an {@link Error} included (a stack overflow on
 * hostile input, a collaborator's {@link AssertionError} or {@link LinkageError}), so no failure
 * leaves the lock held or the host's turn waiting; only a {@linkplain FatalErrors fatal} error (out
 * of memory, say) completes the stage exceptionally, so that the host sees it. A lock acquisition
 * is asynchronous, so no thread waits.
 *
 * <p>Standing memories: until a {@code beforeSendLoop} of the hook has injected, its recall also
 * reads the standing profiles of the hook's scopes ({@link StandingProfiles}; {@link ScopedRecall}
 * decides about each memory), and they go first in that callback's one call, so a conversation
 * starts knowing them whatever its first message asks. The injection that carries them settles it;
 * an attempt that injected nothing (nothing standing, nothing recalled), failed or timed out leaves
 * them to the next {@code beforeSendLoop}. {@code afterSend} never offers them.
 *
 * <p>Thread-safe.
 */
public final class AsyncMemoryHook implements MemoryHook {

  private static final Logger LOG = LoggerFactory.getLogger(AsyncMemoryHook.class);

  private final String id;
  private final ChatService chat;
  private final HookOptions options;
  private final ScopedRecall recall;
  private final GetMemoryTool tool;
  private final HostChecks hostChecks;
  private final Executor executor;
  private final HookDisposal onDispose;

  /**
   * Captures the conversation in each callback, before recall; empty for a hook without capture.
   */
  private final Optional<ConversationCapture> capture;

  private final AsyncLock lock = AsyncLock.createFair();
  private final HookEvents events;
  private final HookReceipts receipts;
  private final Clock clock;

  /** Whether the chat service reports the requests it submits (receipts can show delivery). */
  private volatile boolean reportsDelivery;

  /** Injects what recall selected, at most once per id, and records each attempt's receipt. */
  private final PairInjector injector;

  /**
   * Whether a {@code beforeSendLoop} has injected what it offered with the standing memories; set
   * under {@link #lock}, once.
   */
  private volatile boolean standingSettled;

  /** Ids of messages already scanned; only touched under {@link #lock}. */
  private final Set<String> scanned = new LinkedHashSet<>();

  /**
   * Messages whose recall timed out, handed back to the next callback once; under {@link #lock}.
   */
  private final RecallRetries retries = new RecallRetries();

  /** Filled by the constructor, then guarded by {@link #lifecycle}. */
  private final List<Registration> registrations = new ArrayList<>(3);

  /**
   * Held by {@link #dispose()} to set {@link #disposed}, and by a callback from its last look at
   * {@link #disposed} until the chat service's {@code injectToolCall} has returned: once dispose()
   * returns, no injection starts, and an injection that started before has been handed over.
   */
  private final Object lifecycle = new Object();

  /** Set under {@link #lifecycle}; read without it where a stale read only costs work. */
  private volatile boolean disposed;

  /**
   * The recall the current callback waits for, if any: at most one, since callbacks hold the lock.
   * Published before {@link #disposed} is checked and read after it is set, so either dispose()
   * sees the recall or the callback sees the disposal.
   */
  private volatile CompletableFuture<ScopedRecall.Outcome> inFlight;

  /**
   * Creates the hook over the service's {@code parts} and registers its {@code get_memory} tool and
   * both callbacks on {@code chat}. The hook captures its conversation when {@code options} ask for
   * it and the service captures.
   *
   * @param events where the hook's receipts, notes and failures go; its id is the hook's
   * @param onDispose told once when the hook is disposed (the service forgets the chat service)
   */
  public AsyncMemoryHook(
      ChatService chat,
      HookOptions options,
      HookParts parts,
      HookEvents events,
      HookDisposal onDispose) {
    this.chat = Objects.requireNonNull(chat, "chat");
    this.options = Objects.requireNonNull(options, "options");
    Objects.requireNonNull(parts, "parts");
    this.events = Objects.requireNonNull(events, "events");
    this.id = events.hookId();
    this.clock = parts.clock();
    this.receipts = new HookReceipts(options.toolName(), events, clock);
    this.capture =
        parts
            .capture()
            .filter(pipeline -> options.capture())
            .map(pipeline -> new ConversationCapture(pipeline, options));
    this.tool =
        new GetMemoryTool(parts.store(), options, events, clock, parts.sanitizer()::sanitize);
    this.injector =
        new PairInjector(chat, options, tool, receipts, events, clock, () -> reportsDelivery);
    this.recall =
        new ScopedRecall(
            parts.recall(),
            parts.standing(),
            options,
            () -> capture.map(ConversationCapture::sessionId).orElse(null),
            parts.sanitizer()::sanitize);
    this.hostChecks = new HostChecks(id);
    this.executor = parts.executor();
    this.onDispose = Objects.requireNonNull(onDispose, "onDispose");
    startFromLatestUserMessage(chat.messages());
    registrations.add(chat.registerTool(GetMemoryTool.definition(options.toolName()), tool));
    try {
      registrations.add(chat.onBeforeSendLoop(this::beforeSendLoop));
      registrations.add(chat.onAfterSend(this::afterSend));
      Optional<Registration> delivery = chat.onRequestSubmitted(this::submitted);
      delivery.ifPresent(registrations::add);
      this.reportsDelivery = delivery.isPresent();
    } catch (RuntimeException e) {
      registrations.forEach(Registration::remove);
      throw e;
    }
  }

  /**
   * A hook attached to a conversation already under way starts from its latest user message: the
   * earlier ones, and the model's reasoning so far, were answered long ago, and memories for them
   * would only crowd the next request. Runs before the callbacks are registered, so no lock.
   */
  private void startFromLatestUserMessage(List<ChatMessage> conversation) {
    String latestUser = null;
    for (ChatMessage m : conversation) {
      if (isUserMessage(m)) {
        latestUser = m.id();
      }
    }
    for (ChatMessage m : conversation) {
      if (!m.id().equals(latestUser)) {
        scanned.add(m.id());
      }
    }
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Scope scope() {
    return options.captureScope();
  }

  @Override
  public List<Scope> scopes() {
    return options.scopes();
  }

  @Override
  public Set<MemoryId> injectedIds() {
    return injector.injectedIds();
  }

  @Override
  public List<InjectionReceipt> receipts() {
    return receipts.snapshot();
  }

  /** The chat service submitted a request: link the receipts whose pair it carries. */
  private void submitted(SubmittedRequest request) {
    try {
      receipts.submitted(request);
    } catch (Throwable e) {
      FatalErrors.rethrowIfFatal(e);
      LOG.warn("hook {}: linking a submitted request to receipts failed", id, e);
    }
  }

  @Override
  public boolean isDisposed() {
    return disposed;
  }

  /** The host mistake this hook warned about ({@link HostChecks}), or null if none. */
  String hostWarning() {
    return hostChecks.warning();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Waits for an injection another thread has already begun to be handed to the chat service
   * (its {@code injectToolCall} to return), so that none is queued after this returns; it never
   * waits for a recall. Called from within {@code injectToolCall} on the injecting thread, it does
   * not wait (that injection goes ahead). A chat service must therefore not call it, from another
   * thread, while holding a lock its {@code injectToolCall} needs.
   */
  @Override
  public void dispose() {
    synchronized (lifecycle) {
      if (disposed) {
        return;
      }
      disposed = true;
      for (Registration r : registrations) {
        try {
          r.remove();
        } catch (RuntimeException e) {
          LOG.warn("hook {}: unregistering from the chat service failed", id, e);
        }
      }
      registrations.clear();
    }
    CompletableFuture<ScopedRecall.Outcome> pending = inFlight;
    if (pending != null) {
      // The waiting callback completes quietly without waiting out its timeout; a recall not yet
      // started will not start. Completed on another thread: completing it here would run the rest
      // of the host's turn inside dispose().
      pending.completeAsync(() -> null);
    }
    onDispose.disposed(chat, this);
  }

  /** Fired at the start of each send loop: new user messages only; never asks for a resend. */
  public CompletionStage<Void> beforeSendLoop() {
    return run(HookPhase.BEFORE_SEND_LOOP, AsyncMemoryHook::isUserMessage);
  }

  private static boolean isUserMessage(ChatMessage m) {
    return m.role() == ChatRole.USER && m.origin() == MessageOrigin.USER;
  }

  /**
   * Fired after each model reply: new model reasoning only; asks for a resend only if it injected.
   */
  public CompletionStage<Void> afterSend() {
    return run(
        HookPhase.AFTER_SEND,
        m -> m.role() == ChatRole.REASONING && m.origin() == MessageOrigin.MODEL);
  }

  private CompletionStage<Void> run(HookPhase phase, Predicate<ChatMessage> wanted) {
    if (disposed) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    lock.acquireLock()
        .whenComplete(
            (token, lockError) -> {
              if (lockError != null) {
                finish(phase, lockError, done);
                return;
              }
              CompletionStage<Void> work;
              try {
                work = underLock(phase, wanted);
              } catch (Throwable e) {
                // the last line of defence: an Error (a stack overflow on hostile input, a
                // collaborator's AssertionError or LinkageError) must not leave the lock held and
                // the host's turn waiting for ever
                work = CompletableFuture.failedFuture(e);
              }
              work.whenComplete(
                  (ignored, error) -> {
                    try {
                      token.releaseLock();
                    } finally {
                      finish(phase, error, done);
                    }
                  });
            });
    return done;
  }

  /**
   * Completes the callback's stage {@code done} after its work ended with {@code error} (null when
   * it succeeded): normally, after reporting the error, unless the error is {@linkplain
   * FatalErrors#fatal fatal}, which completes it exceptionally so that the host sees it. Completes
   * it whatever reporting throws.
   */
  private void finish(HookPhase phase, Throwable error, CompletableFuture<Void> done) {
    Throwable cause = error == null ? null : unwrap(error);
    if (cause != null && FatalErrors.fatal(cause)) {
      done.completeExceptionally(cause);
      return;
    }
    try {
      if (cause != null) {
        events.failed(phase, cause);
      }
    } catch (Throwable reporting) {
      FatalErrors.rethrowIfFatal(reporting);
      LOG.warn("hook {}: reporting a failure of {} failed", id, phase, reporting);
    } finally {
      done.complete(null);
    }
  }

  private CompletionStage<Void> underLock(HookPhase phase, Predicate<ChatMessage> wanted) {
    if (disposed) {
      return CompletableFuture.completedFuture(null);
    }
    List<ChatMessage> conversation = chat.messages();
    capture.ifPresent(c -> c.capture(conversation));
    if (phase == HookPhase.AFTER_SEND) {
      // a message whose recall timed out was seen in time, though handed back to be scanned again
      hostChecks.afterReply(conversation, id -> scanned.contains(id) || retries.handedBack(id));
    }
    receipts.seen(conversation);
    List<ChatMessage> fresh = new ArrayList<>();
    for (ChatMessage m : conversation) {
      if (wanted.test(m) && scanned.add(m.id())) {
        fresh.add(m);
      }
    }
    if (fresh.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    AttemptReceipts.Attempt attempt =
        new AttemptReceipts.Attempt(
            id, options, phase, fresh.stream().map(ChatMessage::id).toList());
    boolean offerStanding = phase == HookPhase.BEFORE_SEND_LOOP && !standingSettled;
    long started = System.nanoTime();
    long timeoutMillis = options.recallTimeout().toMillis();
    CompletableFuture<ScopedRecall.Outcome> pending = new CompletableFuture<>();
    pending.orTimeout(Math.max(1, timeoutMillis), TimeUnit.MILLISECONDS);
    inFlight = pending;
    // The rest of the callback is attached before the recall is handed over, so a timeout is
    // reported when it fires even while an executor that runs tasks inline is still recalling.
    CompletionStage<Void> rest =
        pending
            .handle(
                (outcome, error) -> {
                  inFlight = null;
                  Duration took = Duration.ofNanos(System.nanoTime() - started);
                  if (error != null) {
                    Throwable cause = unwrap(error);
                    boolean timedOut = cause instanceof TimeoutException;
                    if (timedOut) {
                      cause = retries.handBack(fresh, scanned, options.recallTimeout());
                    }
                    receipts.add(
                        AttemptReceipts.recallFailed(
                            attempt, clock.instant(), took, cause, timedOut));
                    // a fatal error goes on to the host (finish); any other is reported here
                    FatalErrors.rethrowIfFatal(cause);
                    events.failed(phase, cause);
                    return null;
                  }
                  return new PairInjector.Recalled(outcome, took);
                })
            .thenCompose(recalled -> injectUnlessDisposed(attempt, recalled))
            .thenAccept(
                settles -> {
                  if (settles) {
                    standingSettled = true;
                  }
                });
    if (disposed) {
      // dispose() may have looked for an in-flight recall before this one was published
      pending.complete(null);
    } else {
      try {
        executor.execute(() -> recallIfWanted(fresh, offerStanding, pending));
      } catch (Throwable refused) {
        // a saturated, shut-down or broken executor: fail this recall now, with its receipt, never
        // into the host's turn
        pending.completeExceptionally(refused);
      }
    }
    return rest;
  }

  /**
   * Injects what was recalled unless the hook is disposed. The last look at {@link #disposed} and
   * the injection's start (up to the return of the chat service's {@code injectToolCall}) hold
   * {@link #lifecycle}, which {@link #dispose()} takes to set it: a callback that waited for the
   * hook's lock while the hook was disposed finds it disposed here and injects nothing.
   *
   * @return a stage completed with whether a pair was queued that offered the standing memories
   */
  private CompletionStage<Boolean> injectUnlessDisposed(
      AttemptReceipts.Attempt attempt, PairInjector.Recalled recalled) {
    synchronized (lifecycle) {
      if (disposed) {
        return CompletableFuture.completedFuture(false);
      }
      boolean offeredStanding =
          recalled != null && recalled.outcome() != null && recalled.outcome().offeredStanding();
      return injector.inject(attempt, recalled).thenApply(injected -> injected && offeredStanding);
    }
  }

  /**
   * The recall task. It does nothing if its callback has already given up (the timeout fired or the
   * hook was disposed) before it started, so abandoned recalls cost the executor no search and
   * never delay the recalls queued behind them. A search already running is left to finish, not
   * interrupted: interrupting Lucene I/O can close the index's file channels.
   */
  private void recallIfWanted(
      List<ChatMessage> fresh,
      boolean offerStanding,
      CompletableFuture<ScopedRecall.Outcome> pending) {
    if (abandoned(pending)) {
      pending.complete(null);
      return;
    }
    try {
      pending.complete(
          recall.recallAll(fresh, injectedIds(), offerStanding, () -> abandoned(pending)));
    } catch (Throwable t) {
      // as CompletableFuture.supplyAsync does: whatever the recall throws fails only this recall
      pending.completeExceptionally(t);
    }
  }

  /** Whether nobody waits for {@code pending} any more: it timed out, or the hook was disposed. */
  private boolean abandoned(CompletableFuture<?> pending) {
    return pending.isDone() || disposed;
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException
            || t instanceof java.util.concurrent.ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  @Override
  public String toString() {
    return "MemoryHook["
        + id
        + ", scopes="
        + options.scopes()
        + (disposed ? ", disposed" : "")
        + "]";
  }
}
