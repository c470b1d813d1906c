package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import dev.memhook.api.capture.Session;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The local consolidator: distils a session's observations with plain rules.
 *
 * <ul>
 *   <li><b>What the user stated</b>: every standing statement of a user's message, found and typed
 *       by {@link Statements} (a preference, a decision, a convention as PATTERN, a workflow, or a
 *       fact about the project, its environment or the user), at most {@value #MAX_STATEMENTS} a
 *       session, with what it names ({@link Statements#subjects}) as concepts. A statement worded
 *       as a change is marked a {@linkplain Consolidation#corrects() correction}; when it corrects
 *       a statement of the same session, only the correction is kept.
 *   <li><b>What the agent found</b>: a sentence of the agent's stating a decision ("we decided",
 *       "let's go with") as DECISION, a pattern ("whenever the schema changes, we regenerate the
 *       client", not addressed to "you") as PATTERN, a finding ("it turns out the cache was stale")
 *       as FACT; at most {@value #MAX_FACTS} patterns and facts a session. A repeated command
 *       within one session is not taken for a pattern: a session reruns its tests as a matter of
 *       course, and the consolidator sees one session at a time.
 *   <li><b>BUG</b>: a failure (an error, or tests that failed) followed later by a passing run
 *       related to it (a shared file, a shared specific concept, or the same command): the user's
 *       sentences that report a problem (from the nearest of the {@value #REPORT_LOOKBACK} messages
 *       before the failure that reports one, else the failure's turn; how the user saw it, up to
 *       {@value #MAX_REPORT} characters; they title the bug and lead its content), the agent's
 *       explanation in between (cause and fix in its words, up to {@value #MAX_EXPLANATION}
 *       characters; if it said nothing in between, the answer that closes the passing run's turn),
 *       the failing run, the edits in between, and the passing run (without a report, the failing
 *       run leads as the symptom); its sources are the report, the failure, the explanation, the
 *       edits and the passing run. Also a BUG, with no run to show it: a user's message that
 *       reports a problem without asking for work, files edited after it (in its turn, or in the
 *       next if the user only lets the agent go on: "fix it"), and the agent's answers saying what
 *       was wrong or what it changed: its diagnosis before the edits, or its answer after the last
 *       edit (the report, the diagnosis, the edits and the answer are its sources). A bug's fix
 *       that the agent told as a practice (labelled "Fix: no module-level stores …", set against a
 *       stopgap "the real fix is …", told as what the code must do "the store has to behave on the
 *       server too: …", as what sorts it out, or by the recurrence it prevents) is also kept as a
 *       PATTERN, "Lesson of a fixed bug: …", for a later task that builds something like it ({@link
 *       FixLessons}).
 *   <li><b>What the agent read of the project's rules</b>: after a read of a contributing guide, a
 *       style guide or a linter's configuration, the rules the agent's answer tells, as a PATTERN
 *       with the task that needed them ({@link ProjectRules}).
 *   <li><b>WORKFLOW</b>: the build and test commands run up to the last build or test that passed.
 *   <li><b>What the agent read of the project's configuration</b>: a version pin, code owners, the
 *       repository's remote or a configuration file's settings, restated in words by {@link
 *       ProjectSettings} as a FACT, at most {@value #MAX_SETTINGS} a session.
 * </ul>
 *
 * Every sentence kept of what the user or the agent said passes {@link FactAdmission}.
 * Consolidations that are {@link NearDuplicates} of an earlier one of the same type are merged into
 * it. Every consolidation's sources are non-empty and among the given observations; every text is
 * within the {@link MemoryDraft} limits.
 *
 * <p>Stateless and thread-safe.
 */
public final class HeuristicConsolidator implements Consolidator {

  /** The most facts and patterns one session's agent answers yield, together. */
  static final int MAX_FACTS = 10;

  /** The most characters of the agent's explanation a bug keeps. */
  static final int MAX_EXPLANATION = 800;

  /** The most characters of the user's report a bug keeps. */
  static final int MAX_REPORT = 300;

  /** The most statements one session's user messages yield. */
  static final int MAX_STATEMENTS = 20;

  /** The most reads of the project's configuration one session yields. */
  static final int MAX_SETTINGS = 8;

  /** Where one command of a shell chain ends and the next begins. */
  private static final Pattern CHAIN = Pattern.compile("&&|\\|\\||;");

  private static final int MAX_CONCEPTS = SyntheticCompressor.MAX_CONCEPTS;

  @Override
  public List<Consolidation> consolidate(Session session, List<Memory> observations) {
    Objects.requireNonNull(session, "session");
    List<ObservationView> views = new ArrayList<>();
    for (Memory m : observations) {
      if (m.type() == MemoryType.OBSERVATION) {
        views.add(ObservationView.of(m));
      }
    }
    List<Consolidation> out = new ArrayList<>();
    statements(views, out);
    rulesRead(views, out);
    Set<Integer> reports = bugs(views, out);
    fixesInTurn(views, reports, out);
    workflow(views, out);
    recaps(views, out);
    settings(session.cwd() == null ? "" : session.cwd(), views, out);
    return out;
  }

  @Override
  public String name() {
    return "heuristic";
  }

  /** What the session did, in a few sentences; see {@link SessionSummary}. */
  public static String summarize(Session session, List<Memory> observations) {
    return SessionSummary.of(session, observations);
  }

  private static void statements(List<ObservationView> views, List<Consolidation> out) {
    int facts = 0;
    int stated = 0;
    ObservationView offer = null; // the agent's answer since the last prompt
    boolean edited = false; // whether the agent edited files since its last answer
    for (int at = 0; at < views.size(); at++) {
      ObservationView v = views.get(at);
      if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
        List<Statements.Statement> said = new ArrayList<>();
        Statements.Statement chose =
            OfferedChoices.of(v.said(), offer == null ? null : offer.said());
        if (chose != null) {
          said.add(chose); // "flyway." after "the two usual choices are Flyway and Liquibase"
        }
        for (Statements.Statement st : Statements.of(v.said())) {
          if (chose == null
              || !chose
                  .text()
                  .toLowerCase(Locale.ROOT)
                  .contains(stripDot(st.text()).toLowerCase(Locale.ROOT))) {
            said.add(st); // the choice's reason is said with the choice, not apart from it
          }
        }
        offer = null;
        edited = false;
        for (Statements.Statement st : said) {
          if (stated++ >= MAX_STATEMENTS) {
            break;
          }
          String content = TextCuts.asSentence(TextCuts.atWord(st.text(), 2_000));
          List<ObservationView> sources = List.of(v);
          ObservationView done = Statements.askedForGood(st) ? closingAnswer(views, at) : null;
          if (done != null && !done.said().isBlank()) {
            // "move it to half past four utc instead, that's the official time from now on":
            // the agent's answer says what the time now is ("cron(…, hour=4, minute=30)")
            content +=
                " Done: "
                    + TextCuts.asSentence(
                        TextCuts.atWord(TextCuts.flat(done.said(), 2_000), MAX_DONE));
            sources = List.of(v, done);
          }
          add(
              out,
              st.type(),
              titlePrefix(st.type()),
              content,
              importance(st.type()),
              sources,
              content,
              st.correction(),
              Statements.subjects(st.text()));
        }
        continue;
      }
      if (v.type() != LifecycleEventType.AGENT_RESPONSE) {
        edited |= v.kind() == ObservationKind.FILE_EDIT;
        continue;
      }
      Statements.Statement carried =
          offer != null && edited ? OfferedChoices.carriedOut(offer.said(), v.said()) : null;
      if (carried != null) {
        // "I'd go with 2 now", answered "that" (stored as no observation), then done: the
        // decision the user's acknowledgement made
        add(
            out,
            carried.type(),
            titlePrefix(carried.type()),
            carried.text(),
            importance(carried.type()),
            List.of(offer, v),
            carried.text(),
            false,
            Statements.subjects(carried.text()));
      }
      offer = v;
      edited = false;
      for (String s : TextCuts.sentences(v.said(), Spoken.WINDOW)) {
        if (!FactAdmission.admits(s)) {
          continue;
        }
        String content = TextCuts.asSentence(TextCuts.atWord(s, 2_000));
        if (Wording.decision(s)) {
          add(out, MemoryType.DECISION, "Decision: ", content, 0.75, List.of(v));
        } else if (facts < MAX_FACTS && Wording.pattern(s)) {
          facts++;
          add(out, MemoryType.PATTERN, "Pattern: ", content, 0.65, List.of(v));
        } else if (facts < MAX_FACTS && Wording.discovery(s)) {
          facts++;
          add(out, MemoryType.FACT, "Fact: ", content, 0.6, List.of(v));
        }
      }
    }
  }

  /**
   * Adds the project's rules as the agent told them after reading the file that sets them ({@link
   * ProjectRules}), as a convention: the rules, then the task that needed them.
   */
  private static void rulesRead(List<ObservationView> views, List<Consolidation> out) {
    for (ProjectRules.Told t : ProjectRules.of(views)) {
      add(
          out,
          MemoryType.PATTERN,
          "Convention: ",
          t.content(),
          importance(MemoryType.PATTERN),
          t.sources(),
          t.rules());
    }
  }

  /** The title's opening word for a user's statement of {@code type}. */
  private static String titlePrefix(MemoryType type) {
    return switch (type) {
      case PREFERENCE -> "Preference: ";
      case DECISION, ARCHITECTURE -> "Decision: ";
      case PATTERN -> "Convention: ";
      case WORKFLOW -> "Workflow: ";
      default -> "Fact: ";
    };
  }

  /**
   * How much a user's statement of {@code type} matters: what the user asked for or decided
   * outranks a convention, a convention a procedure, and a procedure a plain fact.
   */
  private static double importance(MemoryType type) {
    return switch (type) {
      case PREFERENCE -> 0.8;
      case DECISION, ARCHITECTURE -> 0.8;
      case PATTERN -> 0.75;
      case WORKFLOW -> 0.7;
      default -> 0.65;
    };
  }

  /** Adds the bugs of failed and passing runs; returns the positions of the reports they used. */
  private static Set<Integer> bugs(List<ObservationView> views, List<Consolidation> out) {
    Set<Integer> reports = new LinkedHashSet<>();
    Set<Integer> used = new LinkedHashSet<>();
    for (int i = 0; i < views.size(); i++) {
      ObservationView failure = views.get(i);
      if (!failure.failed() || used.contains(i)) {
        continue;
      }
      int fix = -1;
      for (int j = i + 1; j < views.size() && fix < 0; j++) {
        if ((views.get(j).passed() && related(failure, views.get(j)))
            || rerunWithoutFailure(failure, views.get(j))) {
          fix = j;
        }
      }
      if (fix < 0) {
        continue;
      }
      List<ObservationView> sources = new ArrayList<>();
      sources.add(failure);
      List<String> edited = new ArrayList<>();
      StringBuilder explained = new StringBuilder();
      for (int k = i + 1; k < fix; k++) {
        ObservationView v = views.get(k);
        if (v.failed() && related(failure, v)) {
          used.add(k); // the same failure seen again before the fix
          sources.add(v);
        } else if (v.kind() == ObservationKind.FILE_EDIT) {
          sources.add(v);
          edited.addAll(v.memory().files());
        } else if (v.type() == LifecycleEventType.AGENT_RESPONSE
            && explained.length() < MAX_EXPLANATION) {
          // what the agent found and changed between the failure and the passing run: the cause
          // and the fix in its words, which a later "what broke it last time?" asks for
          String more = explanation(v.said());
          if (!more.isEmpty()) {
            explained.append(explained.length() == 0 ? "" : " ").append(more);
          }
          if (explained.length() > 0 && !sources.contains(v)) {
            sources.add(v);
          }
        }
      }
      ObservationView passed = views.get(fix);
      sources.add(passed);
      if (explained.length() == 0) {
        // the agent often explains after the passing run, closing its turn
        ObservationView after = closingAnswer(views, fix);
        if (after != null) {
          explained.append(explanation(after.said()));
          if (explained.length() > 0) {
            sources.add(after);
          }
        }
      }
      ObservationView report = report(views, i);
      if (report != null) {
        reports.add(views.indexOf(report));
      }
      String reported = report == null ? "" : reported(report.said());
      if (!reported.isEmpty()) {
        sources.add(0, report);
      }
      String symptom =
          TextCuts.asSentence(
              failure.memory().title()
                  + detail(failure.memory().title(), failure.memory().summary()));
      String cause =
          explained.length() == 0
              ? ""
              : " Cause and fix: "
                  + TextCuts.atWord(causeThenFix(explained.toString()), MAX_EXPLANATION);
      String edits =
          edited.isEmpty()
              ? ""
              : " Fix: edited " + String.join(", ", new LinkedHashSet<>(edited)) + ".";
      String verified =
          " Verified: "
              + TextCuts.asSentence(
                  passed.passed()
                      ? passed.memory().title()
                      : passed.memory().title() + ", without the failure");
      // what a reader needs first, the problem and its fix, leads: a memory's summary is its
      // opening sentences, and the summary is what an injection shows
      String content =
          reported.isEmpty()
              ? "Symptom: " + symptom + cause + edits + verified
              : "Reported: "
                  + TextCuts.asSentence(reported)
                  + cause
                  + " Failed run: "
                  + symptom
                  + edits
                  + verified;
      add(
          out,
          MemoryType.BUG,
          "Bug: ",
          content,
          0.7,
          sources,
          reported.isEmpty() ? failure.memory().title() : reported);
      lesson(sources, out);
    }
    return reports;
  }

  /**
   * Adds a bug for each turn that fixed what its user reported without a failing run to show it:
   * the user's message reports a problem ({@link Statements#reportsProblem}), the agent edited
   * files, and its answer after the last edit explains the cause or the change ({@link
   * #explainsFix}). "The keyboard covers the amount field on Android", two edits, then "the
   * manifest used adjustPan … I set adjustResize" is such a turn. A message that already reports a
   * bug of a failed run ({@code reports}) is left to it.
   */
  private static void fixesInTurn(
      List<ObservationView> views, Set<Integer> reports, List<Consolidation> out) {
    for (int i = 0; i < views.size(); i++) {
      ObservationView prompt = views.get(i);
      if (prompt.type() != LifecycleEventType.PROMPT_SUBMIT || reports.contains(i)) {
        continue;
      }
      String reported = reported(prompt.said(), true);
      if (reported.isEmpty()) {
        continue;
      }
      List<ObservationView> edits = new ArrayList<>();
      ObservationView answer = null;
      ObservationView diagnosis = null;
      ObservationView goAhead = null;
      for (int k = i + 1; k < views.size(); k++) {
        ObservationView v = views.get(k);
        if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
          if (edits.isEmpty() && goAhead == null && goAhead(v.said())) {
            goAhead = v; // "fix it" after the agent found the cause: the same bug's fix follows
            continue;
          }
          break;
        }
        if (v.kind() == ObservationKind.FILE_EDIT) {
          edits.add(v);
          answer = null;
        } else if (v.type() == LifecycleEventType.AGENT_RESPONSE) {
          if (!edits.isEmpty()) {
            if (answer == null || explainsFix(v) || !explainsFix(answer)) {
              // a closing pleasantry ("Let me know if anything else comes up.") does not take the
              // place of the answer that explained: the user's "yep" between them, which would
              // have ended the turn, is not stored
              answer = v;
            }
          } else if (diagnosis == null && explainsFix(v)) {
            diagnosis = v; // "found it: … returns without closing rows", before the edit
          }
        }
      }
      if (answer == null) {
        continue;
      }
      if (diagnosis == null && !explainsFix(answer)) {
        continue;
      }
      // the answer after the edit says what changed even when the diagnosis before it told why
      String explained =
          join(diagnosis == null ? "" : explanation(diagnosis.said()), explanation(answer.said()));
      if (explained.isEmpty()) {
        continue;
      }
      List<ObservationView> sources = new ArrayList<>();
      sources.add(prompt);
      if (diagnosis != null) {
        sources.add(diagnosis);
      }
      Set<String> edited = new LinkedHashSet<>();
      for (ObservationView e : edits) {
        sources.add(e);
        edited.addAll(e.memory().files());
      }
      sources.add(answer);
      String content =
          "Reported: "
              + TextCuts.asSentence(reported)
              + " Cause and fix: "
              + TextCuts.atWord(causeThenFix(explained), MAX_EXPLANATION)
              + (edited.isEmpty() ? "" : " Fix: edited " + String.join(", ", edited) + ".");
      add(out, MemoryType.BUG, "Bug: ", content, 0.7, sources, reported);
      lesson(sources, out);
    }
  }

  /**
   * Adds the lesson of a bug's fix as a convention ({@link FixLessons}), with the bug's sources.
   */
  private static void lesson(List<ObservationView> sources, List<Consolidation> out) {
    String lesson = FixLessons.of(sources);
    if (lesson != null) {
      add(
          out,
          MemoryType.PATTERN,
          "Convention: ",
          "Lesson of a fixed bug: " + TextCuts.atWord(lesson, FixLessons.MAX_LESSON),
          importance(MemoryType.PATTERN),
          sources,
          lesson);
    }
  }

  /**
   * Whether {@code said}, the user's message after the agent answered a report, only lets it go on
   * with the fix ("ugh classic. fix it", "yes please do that", "go ahead"): a short message that
   * asks and reports nothing of its own, so the turn it opens fixes the same bug.
   */
  private static boolean goAhead(String said) {
    String flat = TextCuts.flat(said, Spoken.WINDOW);
    if (flat.split("\\s+").length > MAX_GO_AHEAD_WORDS || !reported(flat, false).isEmpty()) {
      return false;
    }
    String lower = flat.toLowerCase(Locale.ROOT);
    return GO_AHEAD.matcher(lower).find();
  }

  /** The most words of a message that only lets the agent go on: {@value}. */
  static final int MAX_GO_AHEAD_WORDS = 8;

  private static final Pattern GO_AHEAD =
      Pattern.compile(
          "\\b(?:fix (?:it|that|this|them)|go ahead|do it|do that|please do|yes,? please|sounds"
              + " good,? (?:fix|do|go)|apply (?:it|the fix|that)|make (?:the|that) change)\\b");

  /**
   * Whether {@code answer} says what was wrong or what was changed ({@link #EXPLAINS_FIX}), or has
   * a sentence that opens with the change made ({@link #CHANGE_MADE}: "Marked the router
   * {@code @MainActor} so …").
   */
  private static boolean explainsFix(ObservationView answer) {
    String said = answer.said();
    if (EXPLAINS_FIX.matcher(said).find()) {
      return true;
    }
    for (String sentence : TextCuts.sentences(said, Spoken.WINDOW)) {
      String s = sentence.strip();
      if (CHANGE_MADE.matcher(s).lookingAt() || FixLessons.tellsTheFix(s)) {
        return true; // "The store has to behave on the server too: …" says what the fix must do
      }
    }
    return false;
  }

  /** {@code a} and {@code b} joined by a space, or the one that is not empty. */
  private static String join(String a, String b) {
    return a.isEmpty() ? b : b.isEmpty() ? a : a + " " + b;
  }

  /**
   * An answer that says what was wrong or what was changed: a cause ("because", "the problem was",
   * "found it", "it was a deadlock") or a change the agent made ("I switched to …", "now uses",
   * "the store now checks …").
   */
  private static final Pattern EXPLAINS_FIX =
      Pattern.compile(
          "(?i)\\b(?:cause[ds]?|because|root cause|culprit|the (?:problem|issue|bug) (?:was|is)"
              + "|found it|it was a|were fighting|which (?:meant|means)|that's why|so every"
              + "|(?:i|we) (?:changed|switched|set|moved|replaced|fixed|added|removed|dropped|made"
              + "|updated|rewrote|wrapped|pinned|reverted)|switched to|changed (?:it )?to|now uses"
              + "|(?:is|are) now|(?:the )?fix (?:is|was) to"
              + "|now (?:only )?(?!that\\b|this\\b)[a-z]{3,}s)\\b");

  /**
   * {@code explained} ordered so that it opens with the cause and the fix: the first sentence that
   * names itself the cause ({@link #CAUSE_NAMED}: "Cause: …", "The root cause was …") leads when
   * another sentence comes before it, and the first later sentence that tells the change made
   * ({@link #CHANGE_MADE}) follows the lead; the others keep their order after them. A memory's
   * summary, which is what an injection shows, is its opening sentences. The agent often opens with
   * what it saw ("Reproduced: the marker never shows up."), names the cause, explains it at length
   * and then says the fix ("Cause: … halves width and height with a bare {@code >>= 1}. For a 1×256
   * texture … Fix: clamp each dimension at 1 …"); a bug's summary should carry the cause and the
   * fix rather than what came before or between them.
   */
  static String causeThenFix(String explained) {
    List<String> ordered = new ArrayList<>(TextCuts.sentences(explained, explained.length()));
    boolean moved = false;
    for (int i = 1; i < ordered.size(); i++) {
      if (CAUSE_NAMED.matcher(ordered.get(i)).lookingAt()) {
        ordered.add(0, ordered.remove(i));
        moved = true;
        break;
      }
    }
    for (int i = 1; i < ordered.size(); i++) {
      if (CHANGE_MADE.matcher(ordered.get(i)).lookingAt()) {
        if (i > 1) {
          ordered.add(1, ordered.remove(i));
          moved = true;
        }
        break;
      }
    }
    return moved ? String.join(" ", ordered) : explained;
  }

  /**
   * A sentence that names itself the cause: labelled ("Cause: …", "Root cause — …") or saying so
   * ("The root cause was …", "The problem is that …", "The culprit was …"), not one that says it is
   * gone ("The problem is fixed now.").
   */
  private static final Pattern CAUSE_NAMED =
      Pattern.compile(
          "(?i)(?:the )?(?:root )?cause(?: (?:was|is))?\\s*[:—–-]|(?:the )?root cause\\b"
              + "|the (?:real |actual )?(?:problem|issue|bug|culprit) (?:was|is)\\b"
              + "(?! (?:now |also )?(?:fixed|gone|solved|resolved|fine)\\b)");

  /**
   * A sentence that tells the change made for a fix: labelled as the fix ("Fix: clamp each
   * dimension …", "Fixed: …") or opening with what was done ("Moved the track into …", "I replaced
   * …", "Added {@code defer rows.Close()} …").
   */
  private static final Pattern CHANGE_MADE =
      Pattern.compile(
          "(?i)(?:the )?fix(?:ed)?\\s*[:—–-]|(?:so )?(?:(?:i|we)(?: have|'ve)? )?(?:changed|switched"
              + "|moved|replaced|removed|added|made|set|raised|lowered|wrapped|pinned|reverted"
              + "|rewrote|dropped|clamped|injected|localised|localized|converted|fixed(?![,.;!])"
              + "|marked)\\b");

  /**
   * The agent's answer that closes the turn of the run at {@code run}: the first answer after it
   * before the user's next message, or null.
   */
  private static ObservationView closingAnswer(List<ObservationView> views, int run) {
    for (int k = run + 1; k < views.size(); k++) {
      ObservationView v = views.get(k);
      if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
        return null;
      }
      if (v.type() == LifecycleEventType.AGENT_RESPONSE) {
        return v;
      }
    }
    return null;
  }

  /**
   * The sentences of an agent's answer that explain, up to {@value #MAX_EXPLANATION} characters:
   * those {@link FactAdmission} admits, and "Found it: …", whose opener reads as scaffolding. A
   * bug's summary shows only the opening of this, so what says nothing of the bug is left out: a
   * lead-in ("Two things combine here:"), a run's status ("Fixed, full suite green (96 passed).")
   * and list and emphasis marks; a short label ("Fix:") is joined to the item that follows it.
   */
  private static String explanation(String said) {
    StringBuilder explained = new StringBuilder();
    String label = "";
    for (String raw : TextCuts.sentences(said, Spoken.WINDOW)) {
      String sentence = TextCuts.LIST_MARK.matcher(raw.replace("**", "")).replaceFirst("").strip();
      int words = sentence.split("\\s+").length;
      if (sentence.endsWith(":") && (words <= MAX_LEAD_IN_WORDS && sentence.indexOf('`') < 0)) {
        // "Fix:" labels what follows; "Two things combine here:" only leads into it
        label = words <= MAX_LABEL_WORDS ? sentence + " " : "";
        continue;
      }
      if (RUN_STATUS.matcher(sentence).find() && sentence.indexOf('`') < 0) {
        continue;
      }
      String told =
          label
              + (sentence.endsWith(":") ? sentence.substring(0, sentence.length() - 1) : sentence);
      label = "";
      if (FactAdmission.rejection(told)
              .filter(
                  r ->
                      r != FactAdmission.Rejection.SCAFFOLDING
                          || !told.toLowerCase(Locale.ROOT).startsWith("found"))
              .isEmpty()
          && explained.length() < MAX_EXPLANATION) {
        explained.append(explained.length() == 0 ? "" : " ").append(TextCuts.asSentence(told));
      }
    }
    return explained.toString();
  }

  /** The most characters of the agent's answer kept with a request made to hold from now on. */
  static final int MAX_DONE = 300;

  /** The most words of a label that opens the item after it ("Root cause:", "The fix:"). */
  private static final int MAX_LABEL_WORDS = 3;

  /** The most words of a lead-in into a list ("Two things combine here:"). */
  private static final int MAX_LEAD_IN_WORDS = 6;

  /**
   * A sentence that reports how a run went, with nothing of the cause or the change: "Fixed, full
   * suite green (96 passed).", "All 6 nodes pass.", "Reproduced."
   */
  private static final Pattern RUN_STATUS =
      Pattern.compile(
          "(?i)^(?:(?:fixed|done|reproduced|confirmed|verified)[,.!;:]*\\s*)?(?:(?:the |full |whole"
              + " |all )*(?:suite|tests?|build|ci|checks?|\\d+ \\w+) (?:is |are |now )?(?:green|pass"
              + "(?:es|ed|ing)?)\\b[^`]{0,40}$|(?:fixed|done|reproduced|confirmed)[.!]?$)");

  /**
   * The user's report of the problem the run at {@code failed} shows: the nearest of the {@value
   * #REPORT_LOOKBACK} prompts before the failure that reports a problem, else the prompt of the
   * failure's turn, or null if there is none. A user often reports in one message and adds what the
   * fix needs in the next ("the peak shows on aug 8 but it came on aug 9" — "they define the day as
   * local time, so convert before resampling"), and the failing run comes in that turn.
   */
  private static ObservationView report(List<ObservationView> views, int failed) {
    ObservationView nearest = null;
    int prompts = 0;
    for (int k = failed - 1; k >= 0 && prompts < REPORT_LOOKBACK; k--) {
      ObservationView v = views.get(k);
      if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
        prompts++;
        if (nearest == null) {
          nearest = v;
        }
        if (!reported(v.said()).isEmpty()) {
          return v;
        }
      }
    }
    return nearest;
  }

  /** How many prompts before a failure are searched for the user's report: {@value}. */
  static final int REPORT_LOOKBACK = 3;

  /**
   * The sentences of {@code said} that report something wrong ({@link Statements#reportsProblem}),
   * up to {@value #MAX_REPORT} characters, or "". They are how the user saw the problem ("the
   * dashboard freezes", "tests fail on CI only"), which a later session asks about in the same
   * words far more often than in the failing command's; the rest of the message (a task, a
   * preference) is not the bug's. A sentence that states a standing rule is not a report even when
   * it names a problem word ("We decided to keep money as long cents, never double."): it is kept
   * as the decision it is.
   */
  private static String reported(String said) {
    return reported(said, false);
  }

  /**
   * {@link #reported(String)}, leaving out, when {@code notAsked}, the sentences that open by
   * asking for work ({@link Statements#opensARequest}): without a failing run to show a problem,
   * "make the empty state friendlier" is a task, not a report.
   */
  private static String reported(String said, boolean notAsked) {
    String read = TextCuts.head(said, Spoken.WINDOW);
    String written = PastedOutput.without(read);
    if (!written.equals(read)) {
      // what the user wrote about the problem, not the trace pasted under it, unless the trace is
      // all there is ("got this: TypeError: x is undefined")
      String report = reported(written, notAsked);
      if (!report.isEmpty()) {
        return report;
      }
    }
    StringBuilder out = new StringBuilder();
    List<String> sentences = TextCuts.sentences(said, Spoken.WINDOW);
    for (String sentence : sentences) {
      if (Statements.reportsProblem(sentence)
          && !statesARule(sentence)
          && !(notAsked && Statements.opensARequest(sentence))) {
        out.append(out.length() == 0 ? "" : " ").append(TextCuts.asSentence(sentence.strip()));
      }
    }
    if (out.length() > 0 && out.toString().split("\\s+").length <= MAX_EXCLAMATION_WORDS) {
      // only an exclamation reports ("… returns full objects in JVM mode. wtf"): the problem is
      // in the words around it, which are then the report
      out.setLength(0);
      for (String sentence : sentences) {
        if (!(notAsked && Statements.opensARequest(sentence))) {
          String s = sentence.strip().replaceFirst(":$", ""); // "…, BUT:" led into the paste
          out.append(out.length() == 0 ? "" : " ").append(TextCuts.asSentence(s));
        }
      }
    }
    return out.length() == 0 ? "" : TextCuts.atWord(out.toString(), MAX_REPORT);
  }

  /** The most words of a report that is only an exclamation ("wtf", "what the hell"): {@value}. */
  private static final int MAX_EXCLAMATION_WORDS = 3;

  /**
   * Whether {@code sentence} states a decision, a preference or a procedure: a rule, which a
   * problem word in it ("never double", "run parse first to catch import errors") does not make a
   * report. A fact or a pattern ("CORS errors on every request") may well be the report.
   */
  private static boolean statesARule(String sentence) {
    for (Statements.Statement s : Statements.of(sentence)) {
      if (s.type() == MemoryType.DECISION
          || s.type() == MemoryType.PREFERENCE
          || s.type() == MemoryType.WORKFLOW) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first "Error: …" or "Failed: …" statement of a summary, as " (…)", or "" if there is none
   * or {@code title} already quotes its start (a run's title names its first error line).
   */
  private static String detail(String title, String summary) {
    String label = "Error: ";
    int at = summary.indexOf(label);
    if (at < 0) {
      label = "Failed: ";
      at = summary.indexOf(label);
    }
    if (at < 0) {
      return "";
    }
    String statement = TextCuts.atWord(TextCuts.firstSentence(summary.substring(at), 1_000), 200);
    String said = statement.length() > label.length() ? statement.substring(label.length()) : "";
    String start = said.substring(0, Math.min(40, said.length())).strip();
    while (!start.isEmpty() && ".!?".indexOf(start.charAt(start.length() - 1)) >= 0) {
      start = start.substring(0, start.length() - 1); // the title quotes it without its stop
    }
    return !start.isEmpty() && title.contains(start) ? "" : " (" + statement + ")";
  }

  /**
   * Whether {@code later} ran the command that failed in {@code failure} again, and this time its
   * output shows no failure: the fix's verification for a tool whose success line no rule knows (a
   * project's own link checker printing "all links ok"). The failure was read from this very
   * command's output, so its absence on the same command is the tool's own word that the problem is
   * gone. A run with no output at all says nothing either way and is not taken.
   */
  private static boolean rerunWithoutFailure(ObservationView failure, ObservationView later) {
    return !failure.command().isEmpty()
        && failure.command().equals(later.command())
        && later.type() == LifecycleEventType.POST_TOOL_USE
        && later.kind() != ObservationKind.ERROR
        && later.outcome() == RunSignals.Outcome.UNKNOWN
        && !ToolPayload.of(ObservationText.part(later.memory().content(), "output"))
            .text()
            .isBlank();
  }

  /** A shared file, a shared concept that is not a tool or language, or the same command. */
  private static boolean related(ObservationView a, ObservationView b) {
    for (String file : a.memory().files()) {
      if (b.memory().files().contains(file)) {
        return true;
      }
    }
    for (String concept : a.memory().concepts()) {
      if (b.memory().concepts().contains(concept) && specific(concept)) {
        return true;
      }
    }
    return !a.command().isEmpty() && a.command().equals(b.command());
  }

  private static boolean specific(String concept) {
    return !TokenScan.LANGUAGES.containsValue(concept)
        && !ToolFamily.COMMAND_CONCEPTS.containsValue(concept)
        && !Concepts.TECHNOLOGIES.contains(concept)
        && ToolFamily.of(concept, null) == ToolFamily.OTHER;
  }

  private static void workflow(List<ObservationView> views, List<Consolidation> out) {
    int last = -1;
    for (int i = 0; i < views.size(); i++) {
      if (views.get(i).passed() && buildOrTest(views.get(i).command())) {
        last = i;
      }
    }
    if (last < 0) {
      return;
    }
    List<String> commands = new ArrayList<>();
    List<ObservationView> sources = new ArrayList<>();
    for (int i = 0; i <= last; i++) {
      ObservationView v = views.get(i);
      String c = TextCuts.atWord(v.command(), 200);
      boolean ran =
          v.kind() == ObservationKind.COMMAND_RUN || v.kind() == ObservationKind.TEST_RESULT;
      if (buildOrTest(c) && ran && !v.failed()) {
        commands.remove(c);
        commands.add(c);
        sources.add(v);
      }
    }
    List<String> steps = commands.subList(Math.max(0, commands.size() - 5), commands.size());
    String content =
        "To build and test, run "
            + String.join(", then ", steps)
            + ". It passed: "
            + TextCuts.asSentence(views.get(last).memory().title());
    add(out, MemoryType.WORKFLOW, "Workflow: ", content, 0.55, sources, String.join(" → ", steps));
  }

  /**
   * The steps the agent's answers set down for next time ({@link AgentRecaps}), each a workflow
   * with the task of its turn, sourced from the answer and the prompt before it.
   */
  private static void recaps(List<ObservationView> views, List<Consolidation> out) {
    for (AgentRecaps.Recap r : AgentRecaps.of(views)) {
      ObservationView prompt = null;
      for (ObservationView v : views) {
        if (v == r.source()) {
          break;
        }
        if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
          prompt = v;
        }
      }
      List<ObservationView> sources = new ArrayList<>();
      if (prompt != null) {
        sources.add(prompt);
      }
      sources.add(r.source());
      add(
          out,
          MemoryType.WORKFLOW,
          "Workflow: ",
          AgentRecaps.withTask(r, prompt),
          0.55,
          sources,
          r.lead());
    }
  }

  /**
   * What the agent read of the project's configuration, restated by {@link ProjectSettings}: one
   * FACT per file or remote (two for a manifest: its settings, its dependencies), at most {@value
   * #MAX_SETTINGS} a session. A file read again in the session restates the same settings and
   * merges as a near-duplicate. A file the session edits after reading it is restated as the edits
   * left it ({@link EditReplay}), since what it read may no longer hold; if the edits cannot be
   * replayed, it is not restated, unless every edit only added to it (its new text keeps the old
   * text whole), which leaves every line read as it was.
   */
  private static void settings(String cwd, List<ObservationView> views, List<Consolidation> out) {
    int read = 0;
    for (int i = 0; i < views.size() && read < MAX_SETTINGS; i++) {
      ObservationView v = views.get(i);
      List<ProjectSettings.Found> found = ProjectSettings.all(v, cwd);
      if (found.isEmpty()) {
        continue;
      }
      List<ObservationView> edits =
          editsAfter(
              views,
              i,
              found.get(0).file(),
              ProjectSettings.projectPath(ProjectSettings.pathRead(v), cwd),
              cwd);
      List<ObservationView> sources = new ArrayList<>(List.of(v));
      if (!edits.isEmpty()) {
        List<ProjectSettings.Found> now = ProjectSettings.afterEdits(v, edits, cwd);
        if (!now.isEmpty()) {
          found = now;
          sources.addAll(edits);
        } else if (!edits.stream().allMatch(HeuristicConsolidator::onlyAdds)) {
          continue;
        }
      }
      for (ProjectSettings.Found f : found) {
        read++;
        List<ProjectSettings.Found> parts = SettingParts.of(f);
        for (int p = 0; p < parts.size(); p++) {
          ProjectSettings.Found part = parts.get(p);
          add(
              out,
              MemoryType.FACT,
              SettingParts.TITLE_PREFIX,
              part.content(),
              p == 0 ? 0.55 : SettingParts.LATER_PART_IMPORTANCE,
              sources,
              part.title(),
              false,
              part.subjects());
        }
      }
    }
  }

  /**
   * The file edits after {@code index} of a file named {@code name} ("" names none), in order,
   * except those known to be of another file of that name: both in the project's directories
   * ({@link ProjectSettings#projectPath}), at different paths. An edit whose place is not known
   * counts, so that a read it may have changed is not restated as it was.
   */
  private static List<ObservationView> editsAfter(
      List<ObservationView> views, int index, String name, String where, String cwd) {
    List<ObservationView> edits = new ArrayList<>();
    if (name.isEmpty()) {
      return edits;
    }
    for (int j = index + 1; j < views.size(); j++) {
      ObservationView v = views.get(j);
      if (v.kind() == ObservationKind.FILE_EDIT) {
        for (String file : v.memory().files()) {
          String edited = file.replace('\\', '/');
          if (edited.substring(edited.lastIndexOf('/') + 1).equals(name)
              && !otherFile(where, ProjectSettings.projectPath(file, cwd))) {
            edits.add(v);
            break;
          }
        }
      }
    }
    return edits;
  }

  /** Whether two files' paths in the project, {@code a} and {@code b}, are known and differ. */
  private static boolean otherFile(String a, String b) {
    return !a.isEmpty() && !b.isEmpty() && !a.equals(b);
  }

  /**
   * Whether edit {@code v} of one file only added text: its input's replacement keeps the text it
   * replaces whole ("old" inside "new"). A write of the whole file, an edit of several files or of
   * several places, or an input cut short says nothing of the kind.
   */
  private static boolean onlyAdds(ObservationView v) {
    if (v.memory().files().size() != 1) {
      return false;
    }
    ToolPayload input = ToolPayload.of(ObservationText.part(v.memory().content(), "input"));
    String before = input.field("old_string", "old_str", "oldString");
    String after = input.field("new_string", "new_str", "newString");
    return !before.isBlank() && after.contains(before);
  }

  /**
   * Whether {@code command} builds or checks the project: one of the commands it chains ({@code
   * &&}, {@code ||}, {@code ;}) runs a build tool (not git or docker: {@code git pull && cargo
   * xtask ci} does), or it speaks of testing, building, verifying, compiling or linting.
   */
  private static boolean buildOrTest(String command) {
    if (command.isEmpty()) {
      return false;
    }
    boolean buildTool = false;
    for (String part : CHAIN.split(command)) {
      String program = ToolFamily.firstWord(part);
      buildTool |=
          ToolFamily.COMMAND_CONCEPTS.containsKey(program)
              && !program.equals("git")
              && !program.equals("docker");
    }
    String lower = command.toLowerCase(Locale.ROOT);
    return buildTool
        || lower.contains("test")
        || lower.contains("build")
        || lower.contains("verify")
        || lower.contains("compile")
        || lower.contains("lint");
  }

  private static void add(
      List<Consolidation> out,
      MemoryType type,
      String titlePrefix,
      String content,
      double importance,
      List<ObservationView> sources) {
    add(out, type, titlePrefix, content, importance, sources, content);
  }

  private static void add(
      List<Consolidation> out,
      MemoryType type,
      String titlePrefix,
      String content,
      double importance,
      List<ObservationView> sources,
      String titleText) {
    add(out, type, titlePrefix, content, importance, sources, titleText, false, List.of());
  }

  /**
   * Adds a consolidation to {@code out}: merged into an earlier near-duplicate of the same type,
   * or, for a correction, in place of an earlier statement of this session about the same subject
   * (the session said it, then corrected it: only the correction stands).
   */
  private static void add(
      List<Consolidation> out,
      MemoryType type,
      String titlePrefix,
      String content,
      double importance,
      List<ObservationView> sources,
      String titleText,
      boolean corrects,
      List<String> subjects) {
    Set<MemoryId> ids = new LinkedHashSet<>();
    Set<String> concepts = new LinkedHashSet<>(subjects);
    Set<String> files = new LinkedHashSet<>();
    for (ObservationView v : sources) {
      ids.add(v.memory().id());
      concepts.addAll(v.memory().concepts());
      files.addAll(v.memory().files());
    }
    String body = TextCuts.atWord(content, MemoryDraft.MAX_CONTENT);
    boolean correctsHeld = corrects;
    if (corrects) {
      for (int i = out.size() - 1; i >= 0; i--) {
        Consolidation earlier = out.get(i);
        if (Corrections.standing(earlier.type())
            && earlier.type() != MemoryType.WORKFLOW
            && Corrections.sameSubject(earlier.content(), body)) {
          out.remove(i);
          correctsHeld = false; // what it corrects was said in this session, not held before
          break;
        }
      }
    }
    String title =
        TextCuts.atWord(
            titlePrefix + TextCuts.flat(stripDot(titleText), 1_000), MemoryDraft.MAX_TITLE);
    // a setting's restatement is the same as another only under the same title: two parts of one
    // file read alike ("alpha host: …" and "beta host: …") but each holds settings the other lacks
    boolean byTitle = SettingParts.subject(title).isPresent();
    for (int i = 0; i < out.size(); i++) {
      Consolidation earlier = out.get(i);
      if (earlier.type() == type
          && (byTitle
              ? earlier.title().equals(title)
              : NearDuplicates.nearDuplicate(earlier.content(), body))) {
        Set<MemoryId> all = new LinkedHashSet<>(earlier.sources());
        all.addAll(ids);
        out.set(i, merged(earlier, all, concepts, files));
        return;
      }
    }
    out.add(
        new Consolidation(
            type,
            title,
            body,
            limit(concepts, MAX_CONCEPTS),
            limit(files, MemoryDraft.MAX_FILES),
            importance,
            List.copyOf(ids),
            correctsHeld));
  }

  private static Consolidation merged(
      Consolidation earlier, Collection<MemoryId> ids, Set<String> concepts, Set<String> files) {
    Set<String> c = new LinkedHashSet<>(earlier.concepts());
    c.addAll(concepts);
    Set<String> f = new LinkedHashSet<>(earlier.files());
    f.addAll(files);
    return new Consolidation(
        earlier.type(),
        earlier.title(),
        earlier.content(),
        limit(c, MAX_CONCEPTS),
        limit(f, MemoryDraft.MAX_FILES),
        earlier.importance(),
        List.copyOf(ids),
        earlier.corrects());
  }

  private static List<String> limit(Set<String> values, int max) {
    return new ArrayList<>(values).subList(0, Math.min(max, values.size()));
  }

  private static String stripDot(String s) {
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
