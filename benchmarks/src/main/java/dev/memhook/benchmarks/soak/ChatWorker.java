package dev.memhook.benchmarks.soak;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.benchmarks.soak.SoakStats.Op;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * One thread driving one hooked chat service, as a host's chat session would: a user question per
 * turn, sent through {@link FakeChatService#sendUser}, with a {@link SoakModel} answering. Every
 * {@code turnsPerConversation} turns the hook is closed and the conversation verified, and a fresh
 * chat service and hook take its place (so a conversation's history, and the hook's set of injected
 * ids, stay bounded however long the soak runs, and {@code hookInto} / {@code close} run under load
 * too).
 *
 * <p>Checks: every turn completes normally within the stall window (an exception from a turn is an
 * exception escaping to the host); per conversation, the synthetic {@code get_memory} calls hold no
 * id twice and exactly the ids the listener and {@link MemoryHook#injectedIds()} report; every
 * injected id is of the hook's scope ({@link ConversationListener} checks each as it comes); the
 * model's own fetch of another scope's id gets {@code not_found} and none of that memory's text.
 * Not thread-safe: one thread runs it.
 */
final class ChatWorker implements Runnable {

  private final int slot;
  private final Scope scope;

  /** How long {@link #verify} waits for the asynchronous listener to report a conversation's. */
  private static final Duration LISTENER_CATCH_UP = Duration.ofSeconds(10);

  private final MemoryService service;
  private final SyntheticCorpus corpus;
  private final MemoryLedger ledger;
  private final Findings findings;
  private final SoakStats stats;
  private final Progress progress;
  private final BooleanSupplier stop;
  private final SoakConfig config;
  private final Random random;

  ChatWorker(
      int slot,
      Scope scope,
      MemoryService service,
      SyntheticCorpus corpus,
      MemoryLedger ledger,
      Findings findings,
      SoakStats stats,
      Progress progress,
      BooleanSupplier stop,
      SoakConfig config,
      long seed) {
    this.slot = slot;
    this.scope = scope;
    this.service = service;
    this.corpus = corpus;
    this.ledger = ledger;
    this.findings = findings;
    this.stats = stats;
    this.progress = progress;
    this.stop = stop;
    this.config = config;
    this.random = new Random(seed);
  }

  /**
   * A pause between turns, as a user and a model take time between messages: without one, a turn
   * whose recalls the saturated executor refuses returns at once, and sixteen threads spin sending
   * turns, which measures the harness rather than the library.
   */
  static final long PAUSE_BETWEEN_TURNS_MILLIS = 20;

  @Override
  public void run() {
    try {
      while (!stop.getAsBoolean()) {
        if (!conversation()) {
          return;
        }
      }
    } catch (Throwable t) { // the worker's own bug or an Error: stop and report, never vanish
      findings.violation("worker died", "chat worker " + slot + ": " + t);
    } finally {
      progress.finish();
    }
  }

  /** One conversation; false if a turn hung (the thread then stops, the watchdog reports it). */
  private boolean conversation() throws InterruptedException {
    ConversationListener listener = new ConversationListener(scope, ledger, findings, stats);
    SoakModel model = new SoakModel();
    FakeChatService chat = FakeChatService.builder().fallbackModel(model::reply).build();
    HookOptions options =
        HookOptions.builder()
            .scope(scope)
            .recallTimeout(config.recallTimeout())
            .listener(listener)
            .noCapture() // the ledger must know every memory of a hook's scope
            .build();
    MemoryHook hook;
    try {
      hook = service.hookInto(chat, options);
    } catch (RuntimeException e) {
      findings.violation("hookInto", "chat " + slot + ": hookInto threw " + e);
      return false;
    }
    boolean healthy = true;
    try {
      for (int turn = 0; turn < config.turnsPerConversation() && !stop.getAsBoolean(); turn++) {
        healthy = turn(chat, model, listener);
        if (!healthy) {
          break;
        }
        progress.step();
        Thread.sleep(PAUSE_BETWEEN_TURNS_MILLIS);
      }
    } finally {
      hook.close();
    }
    if (healthy) {
      verify(chat, hook, listener);
      stats.conversations.increment();
    }
    return healthy;
  }

  private boolean turn(FakeChatService chat, SoakModel model, ConversationListener listener)
      throws InterruptedException {
    SoakModel.Plan plan = plan(listener);
    model.plan(plan);
    int before = chat.messages().size();
    listener.turnStarts();
    long t0 = System.nanoTime();
    CompletableFuture<Void> sent = chat.sendUser(corpus.query(random).text()).toCompletableFuture();
    try {
      sent.get(config.stallWindow().toNanos(), TimeUnit.NANOSECONDS);
      stats.outcomes.add("turn/ok");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      stats.outcomes.add("turn/failed " + cause.getClass().getSimpleName());
      findings.violation("turn failed", "chat " + slot + ": a turn completed with " + cause);
    } catch (TimeoutException e) {
      stats.outcomes.add("turn/hung");
      findings.violation(
          "turn hung",
          "chat "
              + slot
              + ": a turn did not complete in "
              + config.stallWindow().toSeconds()
              + " s");
      return false;
    } finally {
      stats.time(Op.TURN, System.nanoTime() - t0);
    }
    checkFetch(chat.messages(), before, plan);
    return true;
  }

  /** A fetch in about one turn of four: another scope's id, or one this hook injected. */
  private SoakModel.Plan plan(ConversationListener listener) {
    String reasoning = corpus.query(random).text();
    if (random.nextInt(4) != 0) {
      return new SoakModel.Plan(reasoning, null, false);
    }
    MemoryId own = random.nextBoolean() ? listener.injectedAt(random.nextInt(1 << 20)) : null;
    if (own != null) {
      return new SoakModel.Plan(reasoning, own, false);
    }
    int index;
    do {
      index = random.nextInt(corpus.size());
    } while (ledger.scopeOfItem(index).equals(scope));
    return new SoakModel.Plan(reasoning, corpus.items().get(index).id(), true);
  }

  private void checkFetch(List<ChatMessage> messages, int from, SoakModel.Plan plan) {
    if (plan.fetch() == null) {
      return;
    }
    for (int i = from; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (m.role() != ChatRole.TOOL_RESULT
          || !m.toolCall().toolName().equals("get_memory")
          || !plan.fetch().value().equals(m.toolCall().arguments().get("id"))) {
        continue;
      }
      String text = m.text();
      if (plan.foreign()) {
        int index = ledger.itemIndex(plan.fetch());
        boolean leaked = text.contains(corpus.items().get(index).text());
        if (leaked || !text.contains("not_found")) {
          findings.violation(
              "scope isolation",
              "get_memory in "
                  + scope
                  + " for "
                  + plan.fetch()
                  + " of another scope answered: "
                  + abbreviate(text));
        }
        stats.modelFetches.add("foreign " + (leaked ? "LEAKED" : "not_found"));
      } else {
        stats.modelFetches.add(
            "own " + (text.contains("not_found") ? "not_found (forgotten)" : "found"));
      }
      return;
    }
    stats.modelFetches.add("unanswered");
  }

  /** The conversation holds each injected id once, and exactly what the hook reported. */
  private void verify(FakeChatService chat, MemoryHook hook, ConversationListener listener) {
    List<MemoryId> shown = new ArrayList<>();
    for (ToolCall call : chat.toolCalls("get_memory")) {
      if (call.arguments().get("ids")
          instanceof List<?> ids) { // hook injections; the model uses id
        for (Object id : ids) {
          shown.add(MemoryId.of((String) id));
        }
      }
    }
    Set<MemoryId> unique = new LinkedHashSet<>(shown);
    if (unique.size() != shown.size()) {
      stats.duplicateInjections.add(shown.size() - unique.size());
      findings.violation(
          "at-most-once",
          "hook "
              + hook.id()
              + ": the conversation shows "
              + shown.size()
              + " injected ids, "
              + unique.size()
              + " distinct");
    }
    Set<MemoryId> tracked = hook.injectedIds();
    Set<MemoryId> reported = caughtUp(listener, unique);
    boolean listenerBehind =
        !unique.equals(reported) && service.trace().listenerStats().dropped() > 0;
    if (listenerBehind) {
      // documented: listeners that fall too far behind lose events, counted as dropped
      stats.outcomes.add("listener/dropped events");
    }
    if (!unique.equals(tracked) || !unique.equals(reported) && !listenerBehind) {
      findings.violation(
          "injection record",
          "hook "
              + hook.id()
              + ": conversation "
              + unique.size()
              + " ids, listener "
              + reported.size()
              + ", injectedIds() "
              + tracked.size());
    }
  }

  /**
   * What the listener has reported once it reported {@code expected}, or after {@link
   * #LISTENER_CATCH_UP}: listeners run on the service's own thread, after the turn that injected.
   */
  private static Set<MemoryId> caughtUp(ConversationListener listener, Set<MemoryId> expected) {
    long deadline = System.nanoTime() + LISTENER_CATCH_UP.toNanos();
    Set<MemoryId> reported = listener.injected();
    while (!reported.equals(expected) && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      reported = listener.injected();
    }
    return reported;
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
