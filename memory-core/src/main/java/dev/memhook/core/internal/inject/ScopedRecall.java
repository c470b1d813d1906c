package dev.memhook.core.internal.inject;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What one hook recalls for the messages a callback scans, over the hook's ordered scopes.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>Each message is recalled in every scope, each recall with the service's own fusion and
 *       relevance gate; an empty recall is a good answer.
 *   <li>The per-scope lists are fused by rank: rank {@code r} of an earlier scope comes before rank
 *       {@code r} of a later one, and every rank {@code r} before any rank {@code r + 1}. Fused
 *       scores of separate recalls are not comparable, ranks are. The fused list is cut to {@link
 *       HookOptions#maxPerMessage()}.
 *   <li>A memory the conversation captured itself (its source session is the hook's capture
 *       session) is skipped: it is in the model's context already.
 *   <li>Ids already injected are skipped, and a callback keeps at most {@link
 *       HookOptions#maxPerCallback()} new ids, never more than one summary call takes.
 * </ul>
 *
 * <p>Thread-safe if {@code recall} is.
 */
final class ScopedRecall {

  private final Function<RecallQuery, RecallResult> recall;
  private final List<Scope> scopes;
  private final int perMessage;
  private final int perCallback;
  private final Supplier<String> ownSession;

  /**
   * @param ownSession the session the hook captures into, whose memories are never injected back
   *     (it is named after the conversation's first message, so it is asked each time); null, or
   *     giving null, when the hook does not capture
   */
  ScopedRecall(
      Function<RecallQuery, RecallResult> recall,
      HookOptions options,
      Supplier<String> ownSession) {
    this.recall = Objects.requireNonNull(recall, "recall");
    this.scopes = options.scopes();
    this.perMessage = options.maxPerMessage();
    this.perCallback = Math.min(options.maxPerCallback(), GetMemoryTool.MAX_SUMMARY_IDS);
    this.ownSession = ownSession == null ? () -> null : ownSession;
  }

  /**
   * The new ids worth injecting for {@code texts}, in order: the first message's best first. Stops
   * before the next recall once {@code abandoned} says nobody waits for the answer.
   */
  List<MemoryId> recallAll(List<String> texts, Set<MemoryId> already, BooleanSupplier abandoned) {
    LinkedHashSet<MemoryId> chosen = new LinkedHashSet<>();
    String session = ownSession.get();
    for (String text : texts) {
      if (chosen.size() >= perCallback || abandoned.getAsBoolean()) {
        break;
      }
      if (text.isBlank()) {
        continue;
      }
      for (RecalledMemory recalled : fused(text, abandoned)) {
        if (chosen.size() >= perCallback) {
          break;
        }
        MemoryId id = recalled.memory().id();
        // what this conversation captured is in its context already: injecting it back would
        // feed the model its own words (the message being recalled for, first of all)
        if (!(session != null && session.equals(recalled.memory().sourceSession()))
            && !already.contains(id)) {
          chosen.add(id);
        }
      }
    }
    return new ArrayList<>(chosen);
  }

  private List<RecalledMemory> fused(String text, BooleanSupplier abandoned) {
    if (scopes.size() == 1) {
      return recall.apply(new RecallQuery(scopes.get(0), text, perMessage)).memories();
    }
    List<List<RecalledMemory>> lists = new ArrayList<>(scopes.size());
    for (Scope scope : scopes) {
      if (abandoned.getAsBoolean()) {
        break;
      }
      lists.add(recall.apply(new RecallQuery(scope, text, perMessage)).memories());
    }
    List<RecalledMemory> out = new ArrayList<>(perMessage);
    for (int rank = 0; out.size() < perMessage; rank++) {
      boolean any = false;
      for (List<RecalledMemory> list : lists) {
        if (rank < list.size() && out.size() < perMessage) {
          out.add(list.get(rank));
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    return out;
  }
}
