package dev.memhook.core.internal.inject;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryId;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.core.internal.failure.FatalErrors;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * One hook's injections: the ids it has injected (each at most once), the one batched summary call
 * per attempt, the resend an {@code afterSend} injection asks for, and the receipt of every attempt
 * whose recall answered. An id whose call failed (the chat service threw or failed the stage, with
 * anything, an {@link Error} included) is forgotten again, so a later attempt may inject it, and
 * the receipt says the injection failed. The hook's own call is announced to its tool first, so it
 * is not recorded as the model's fetch.
 *
 * <p>Thread-safe; attempts of one hook come one at a time (the hook's lock), and {@link
 * #injectedIds()} may be read from any thread.
 */
final class PairInjector {

  /** What a recall answered and how long it took; a null outcome when it was abandoned. */
  record Recalled(ScopedRecall.Outcome outcome, Duration took) {}

  private final ChatService chat;
  private final HookOptions options;
  private final GetMemoryTool tool;
  private final HookReceipts receipts;
  private final HookEvents events;
  private final Clock clock;
  private final BooleanSupplier reportsDelivery;

  /** Guarded by itself. */
  private final Set<MemoryId> injected = new LinkedHashSet<>();

  PairInjector(
      ChatService chat,
      HookOptions options,
      GetMemoryTool tool,
      HookReceipts receipts,
      HookEvents events,
      Clock clock,
      BooleanSupplier reportsDelivery) {
    this.chat = Objects.requireNonNull(chat, "chat");
    this.options = Objects.requireNonNull(options, "options");
    this.tool = Objects.requireNonNull(tool, "tool");
    this.receipts = Objects.requireNonNull(receipts, "receipts");
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reportsDelivery = Objects.requireNonNull(reportsDelivery, "reportsDelivery");
  }

  /** A snapshot of the ids injected so far, in injection order; unmodifiable. */
  Set<MemoryId> injectedIds() {
    synchronized (injected) {
      return Collections.unmodifiableSet(new LinkedHashSet<>(injected));
    }
  }

  /**
   * Injects what the recall selected in one call and records the attempt's receipt. A recall that
   * failed (null; its receipt is made) or was abandoned (a null outcome: the callback gave up or
   * the hook was disposed) injects nothing.
   *
   * @return a stage completed with whether a pair was queued
   */
  CompletionStage<Boolean> inject(AttemptReceipts.Attempt attempt, Recalled recalled) {
    if (recalled == null || recalled.outcome() == null) {
      return CompletableFuture.completedFuture(false);
    }
    ScopedRecall.Outcome outcome = recalled.outcome();
    List<MemoryId> ids = new ArrayList<>();
    synchronized (injected) {
      for (MemoryId memoryId : outcome.selected()) {
        if (injected.add(memoryId)) {
          ids.add(memoryId);
        }
      }
    }
    if (ids.isEmpty()) {
      addReceipt(attempt, recalled, List.of(), PhaseStatus.skipped("nothing new to inject"));
      return CompletableFuture.completedFuture(false);
    }
    List<String> idStrings = ids.stream().map(MemoryId::value).toList();
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("ids", idStrings);
    args.put("summary", true);
    if (!outcome.focus().isEmpty()) {
      args.put("focus", outcome.focus());
    }
    long started = System.nanoTime();
    tool.expectOwnInjection(idStrings);
    CompletionStage<?> call;
    try {
      call = chat.injectToolCall(options.toolName(), args);
    } catch (Throwable e) {
      // whatever the chat service or the tool throws fails this injection only (fatal errors too,
      // rethrown below once the ids are released and the receipt is made)
      call = CompletableFuture.failedFuture(e);
    }
    HookPhase phase = attempt.phase();
    return call.handle(
        (result, error) -> {
          Duration took = Duration.ofNanos(System.nanoTime() - started);
          if (error != null) {
            tool.forgetOwnInjection(idStrings);
            synchronized (injected) {
              ids.forEach(injected::remove);
            }
            Throwable cause = AsyncMemoryHook.unwrap(error);
            addReceipt(
                attempt,
                recalled,
                List.of(),
                new PhaseStatus(PhaseStatus.Status.FAILED, took, String.valueOf(cause)));
            events.failed(phase, cause);
            FatalErrors.rethrowIfFatal(cause);
            return false;
          }
          if (phase == HookPhase.AFTER_SEND) {
            chat.setNeedsResend();
          }
          addReceipt(attempt, recalled, ids, new PhaseStatus(PhaseStatus.Status.OK, took, ""));
          events.injected(phase, ids);
          return true;
        });
  }

  /** Records the attempt's receipt: what {@code recalled} found, what was injected, and how. */
  private void addReceipt(
      AttemptReceipts.Attempt attempt,
      Recalled recalled,
      List<MemoryId> injectedIds,
      PhaseStatus injection) {
    receipts.add(
        AttemptReceipts.answered(
            attempt,
            clock.instant(),
            recalled.took(),
            recalled.outcome(),
            injectedIds,
            injection,
            reportsDelivery.getAsBoolean()));
  }
}
