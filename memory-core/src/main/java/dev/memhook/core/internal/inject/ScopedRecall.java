package dev.memhook.core.internal.inject;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.spi.TypeListing;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.api.trace.ReceiptCandidate.Decision;
import dev.memhook.core.internal.recall.Exclusion;
import dev.memhook.core.internal.recall.words.QueryWords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What one hook recalls for the messages a callback scans, over the hook's ordered scopes, and the
 * decision about every candidate, for the attempt's receipt; with the hook's first injection, the
 * standing memories of its scopes before them.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>When the attempt offers standing memories (the hook's first injection in a {@code
 *       beforeSendLoop} has not happened yet), each scope's profile is read first, in scope order,
 *       the scopes sharing {@link HookOptions#standingChars()} and {@link
 *       dev.memhook.api.StandingProfile#MAX_MEMORIES} ({@link StandingProfiles} cuts them). A
 *       memory of the hook's own conversation is left out ({@link Decision#OWN_CONVERSATION}), as
 *       is one already injected ({@link Decision#ALREADY_INJECTED}), before the budget counts; the
 *       rest are {@link Decision#STANDING} and come first in the injection. They are not recalled:
 *       no gate, no signals.
 *   <li>Each message is recalled in every scope, each recall with the service's own fusion and
 *       relevance gate; an empty recall is a good answer. What a recall dropped is kept with its
 *       rule ({@link Decision#RELEVANCE_GATE}, {@link Decision#SESSION_CAP}, {@link
 *       Decision#LIMIT}).
 *   <li>The per-scope lists are fused by rank: rank {@code r} of an earlier scope comes before rank
 *       {@code r} of a later one, and every rank {@code r} before any rank {@code r + 1}. Fused
 *       scores of separate recalls are not comparable, ranks are. The fused list is cut to {@link
 *       HookOptions#maxPerMessage()}; what falls off is {@link Decision#FUSED_OUT}.
 *   <li>A memory the conversation captured itself (its source session is the hook's capture
 *       session) is left out inside each recall, by an {@link Exclusion}, before the recall's limit
 *       counts ({@link Decision#OWN_CONVERSATION}): it is in the model's context already, and the
 *       message just captured matches itself perfectly, so it must not take one of the {@link
 *       HookOptions#maxPerMessage()} places a relevant memory would have had.
 *   <li>Ids already injected, or offered as standing memories in this attempt, are skipped ({@link
 *       Decision#ALREADY_INJECTED}), and a callback keeps at most {@link
 *       HookOptions#maxPerCallback()} recalled ids, never more than one summary call takes beside
 *       the standing ones ({@link Decision#OVER_CAP}); the rest are {@link Decision#SELECTED}.
 * </ul>
 *
 * <p>Thread-safe if {@code recall} is.
 */
final class ScopedRecall {

  /**
   * What recall found for one callback.
   *
   * @param selected the ids to inject, in order: the standing ones, then the first message's best
   *     first
   * @param candidates every candidate considered, with its decision
   * @param took the time each signal took, summed over the recalls
   * @param anyPassedGate whether some recalled candidate passed a recall's gate (whatever the hook
   *     then decided); standing memories are not recalled, so they pass no gate
   * @param offeredStanding whether this attempt read the standing profiles (whatever they held)
   * @param focus the words of the messages recalled for, as the summary call's {@code focus} names
   *     them ({@link QueryWords#focus}); empty for none
   */
  record Outcome(
      List<MemoryId> selected,
      List<ReceiptCandidate> candidates,
      Map<Signal, Duration> took,
      boolean anyPassedGate,
      boolean offeredStanding,
      String focus) {
    Outcome {
      selected = List.copyOf(selected);
      candidates = List.copyOf(candidates);
      took = Map.copyOf(took);
    }
  }

  private final HookRecall recall;
  private final StandingProfiles standing;
  private final List<Scope> scopes;
  private final int perMessage;
  private final int perCallback;
  private final int standingChars;
  private final Supplier<String> ownSession;
  private final UnaryOperator<String> sanitize;

  /**
   * @param standing the service's standing profiles
   * @param ownSession the session the hook captures into, whose memories are never injected back
   *     (it is named after the conversation's first message, so it is asked each time); giving null
   *     when the hook does not capture
   * @param sanitize what the messages' text goes through before its words become the summary call's
   *     focus, which the chat service may log with the call
   */
  ScopedRecall(
      HookRecall recall,
      StandingProfiles standing,
      HookOptions options,
      Supplier<String> ownSession,
      UnaryOperator<String> sanitize) {
    this.recall = Objects.requireNonNull(recall, "recall");
    this.standing = Objects.requireNonNull(standing, "standing");
    this.scopes = options.scopes();
    this.perMessage = options.maxPerMessage();
    this.perCallback = Math.min(options.maxPerCallback(), GetMemoryTool.MAX_SUMMARY_IDS);
    this.standingChars = options.standingChars();
    this.ownSession = Objects.requireNonNull(ownSession, "ownSession");
    this.sanitize = Objects.requireNonNull(sanitize, "sanitize");
  }

  /**
   * Recalls for {@code messages} in order, after the standing memories of the hook's scopes when
   * {@code offerStanding} (and the hook's budget for them is not 0). Stops before the next recall
   * once {@code abandoned} says nobody waits for the answer.
   *
   * @param messages not empty
   */
  Outcome recallAll(
      List<ChatMessage> messages,
      Set<MemoryId> already,
      boolean offerStanding,
      BooleanSupplier abandoned) {
    LinkedHashSet<MemoryId> selected = new LinkedHashSet<>();
    List<ReceiptCandidate> candidates = new ArrayList<>();
    Map<Signal, Duration> took = new EnumMap<>(Signal.class);
    String session = ownSession.get();
    Exclusion own = session == null ? Exclusion.none() : Exclusion.sourceSession(session);
    boolean offered = offerStanding && standingChars > 0;
    List<MemoryId> standingIds =
        offered ? standing(messages.get(0).id(), already, own, session, candidates) : List.of();
    selected.addAll(standingIds);
    int recalledCandidatesFrom = candidates.size();
    int recallCap = Math.min(perCallback, GetMemoryTool.MAX_SUMMARY_IDS - standingIds.size());
    int recalled = 0;
    List<String> asked = new ArrayList<>();
    for (ChatMessage message : messages) {
      // a full callback recalls no further: nothing more could be selected
      if (recalled >= recallCap || abandoned.getAsBoolean()) {
        break;
      }
      if (message.text().isBlank()) {
        continue;
      }
      asked.add(sanitize.apply(QueryWords.head(message.text())));
      List<Ranked> fused = fused(message, own, session, candidates, took, abandoned);
      for (int i = 0; i < fused.size(); i++) {
        Ranked r = fused.get(i);
        RecalledMemory m = r.memory();
        Decision decision;
        String detail;
        if (i >= perMessage) {
          decision = Decision.FUSED_OUT;
          detail =
              "ranked " + (i + 1) + " of the fused scopes, past " + perMessage + " per message";
        } else if (standingIds.contains(m.memory().id())) {
          decision = Decision.ALREADY_INJECTED;
          detail = "offered as a standing memory by this injection";
        } else if (already.contains(m.memory().id()) || selected.contains(m.memory().id())) {
          decision = Decision.ALREADY_INJECTED;
          detail = "injected before by this hook";
        } else if (recalled >= recallCap) {
          decision = Decision.OVER_CAP;
          detail = "the callback already selected " + recallCap;
        } else {
          selected.add(m.memory().id());
          recalled++;
          decision = Decision.SELECTED;
          detail = m.why();
        }
        candidates.add(
            new ReceiptCandidate(
                m.memory().id(),
                r.scope(),
                message.id(),
                m.score(),
                m.signals(),
                decision,
                detail));
      }
    }
    boolean passedGate =
        candidates.subList(recalledCandidatesFrom, candidates.size()).stream()
            .anyMatch(
                c ->
                    c.decision() != Decision.RELEVANCE_GATE
                        && c.decision() != Decision.SESSION_CAP
                        && c.decision() != Decision.LIMIT);
    if (asked.isEmpty() && !standingIds.isEmpty()) {
      asked.add(sanitize.apply(QueryWords.head(messages.get(0).text())));
    }
    return new Outcome(
        new ArrayList<>(selected), candidates, took, passedGate, offered, QueryWords.focus(asked));
  }

  /**
   * The standing memories of the hook's scopes to offer with the first injection, in order, each
   * scope's after the one before; every memory of the profiles read goes to {@code candidates},
   * with {@code trigger} as its message: {@link Decision#STANDING}, or why it is left out.
   */
  private List<MemoryId> standing(
      String trigger,
      Set<MemoryId> already,
      Exclusion own,
      String session,
      List<ReceiptCandidate> candidates) {
    boolean showScope = scopes.size() > 1;
    int charsLeft = standingChars;
    int countLeft = StandingProfile.MAX_MEMORIES;
    List<MemoryId> offered = new ArrayList<>();
    for (Scope scope : scopes) {
      if (charsLeft <= 0 || countLeft <= 0) {
        break;
      }
      TypeListing listing = standing.list(scope);
      for (Memory m : listing.memories()) {
        if (own.excludes(m)) {
          candidates.add(
              standingCandidate(
                  m,
                  trigger,
                  Decision.OWN_CONVERSATION,
                  "captured from this conversation (session "
                      + session
                      + "); not offered as a standing memory"));
        } else if (already.contains(m.id())) {
          candidates.add(
              standingCandidate(
                  m, trigger, Decision.ALREADY_INJECTED, "injected before by this hook"));
        }
      }
      StandingProfile profile =
          StandingProfiles.cut(
              scope,
              listing,
              charsLeft,
              countLeft,
              showScope,
              m -> !own.excludes(m) && !already.contains(m.id()));
      for (int i = 0; i < profile.memories().size(); i++) {
        Memory m = profile.memories().get(i);
        candidates.add(
            standingCandidate(
                m,
                trigger,
                Decision.STANDING,
                "standing "
                    + m.type().name().toLowerCase(Locale.ROOT)
                    + ", "
                    + (i + 1)
                    + " of "
                    + profile.memories().size()
                    + " offered from scope "
                    + scope
                    + " within "
                    + charsLeft
                    + " characters; "
                    + profile.omitted()
                    + " more left to recall"));
        offered.add(m.id());
      }
      charsLeft -= profile.characters();
      countLeft -= profile.memories().size();
    }
    return offered;
  }

  private static ReceiptCandidate standingCandidate(
      Memory m, String trigger, Decision decision, String detail) {
    return new ReceiptCandidate(
        m.id(), m.scope(), trigger, Double.NaN, List.of(), decision, detail);
  }

  /** A memory recalled in {@code scope}. */
  private record Ranked(Scope scope, RecalledMemory memory) {}

  /**
   * The message's recalls fused by rank over the scopes (every one kept, in fused order), each
   * recall leaving out the memories of {@code own} (the hook's capture session {@code session})
   * before its limit; what the recalls left out or dropped goes to {@code candidates} at once.
   */
  private List<Ranked> fused(
      ChatMessage message,
      Exclusion own,
      String session,
      List<ReceiptCandidate> candidates,
      Map<Signal, Duration> took,
      BooleanSupplier abandoned) {
    List<List<Ranked>> lists = new ArrayList<>(scopes.size());
    for (Scope scope : scopes) {
      if (!lists.isEmpty() && abandoned.getAsBoolean()) {
        break;
      }
      Exclusion.Result recalled =
          recall.recall(new RecallQuery(scope, message.text(), perMessage), own);
      RecallResult result = recalled.result();
      result.took().forEach((signal, d) -> took.merge(signal, d, Duration::plus));
      lists.add(result.memories().stream().map(m -> new Ranked(scope, m)).toList());
      for (RecalledMemory m : recalled.excluded()) {
        candidates.add(
            new ReceiptCandidate(
                m.memory().id(),
                scope,
                message.id(),
                m.score(),
                m.signals(),
                Decision.OWN_CONVERSATION,
                "captured from this conversation (session "
                    + session
                    + "); left out before the limit of "
                    + perMessage));
      }
      for (DroppedCandidate d : result.dropped()) {
        candidates.add(
            new ReceiptCandidate(
                d.id(),
                scope,
                message.id(),
                Double.NaN,
                d.signals(),
                decisionOf(d.rule()),
                d.detail()));
      }
    }
    List<Ranked> out = new ArrayList<>();
    for (int rank = 0; ; rank++) {
      boolean any = false;
      for (List<Ranked> list : lists) {
        if (rank < list.size()) {
          out.add(list.get(rank));
          any = true;
        }
      }
      if (!any) {
        return out;
      }
    }
  }

  private static Decision decisionOf(DroppedCandidate.Rule rule) {
    return switch (rule) {
      case RELEVANCE_GATE -> Decision.RELEVANCE_GATE;
      case SESSION_CAP -> Decision.SESSION_CAP;
      case LIMIT -> Decision.LIMIT;
    };
  }
}
