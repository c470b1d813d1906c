package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Compressor;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.capture.ObservationKind;
import dev.memhook.core.internal.observe.FieldText;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The local compressor: turns an observation into its compressed form with plain text rules, no
 * model and no network. It runs for every captured event (and whenever a provider's compressor
 * fails), so it is deterministic, linear in what it reads and bounded in what it reads: tool input
 * and output are scanned only up to {@link #SCAN_WINDOW} characters each (a test summary is also
 * looked for in the last {@link RunSignals#WINDOW} characters, where test runners print it).
 *
 * <p>What it derives: a title ({@code Edited src/main/App.java}, {@code Ran mvn test: 3 failures},
 * {@code User: prefers tabs over spaces}); facts (the command, test counts, failed tests, the build
 * result, the exit code, edited files, the first error line); a narrative; concepts (the tool,
 * languages by file extension, frameworks by command, error class names, {@code CamelCase}
 * identifiers); the files named in input and output; the kind; and an importance (errors, decisions
 * and preferences high, reads low). Every answer is within the {@link MemoryDraft} limits.
 *
 * <p>Stateless and thread-safe.
 */
public final class SyntheticCompressor implements Compressor {

  /** How many leading characters of each tool input, output and error are scanned. */
  static final int SCAN_WINDOW = 32_768;

  /** The most concepts an observation gets: enough to link it, few enough to stay specific. */
  static final int MAX_CONCEPTS = 20;

  /** The most facts an observation gets. */
  static final int MAX_FACTS = 6;

  /** The longest fact. */
  static final int MAX_FACT = 300;

  /** The longest narrative. */
  static final int NARRATIVE_LENGTH = 600;

  /** The longest subject (command, file, first sentence) inside a title. */
  private static final int SUBJECT_LENGTH = 120;

  @Override
  public CompressedObservation compress(Observation observation) {
    Objects.requireNonNull(observation, "observation");
    EventData data = observation.data();
    String tool = observation.toolName() != null ? observation.toolName() : data.toolName();
    return switch (observation.type()) {
      case PROMPT_SUBMIT -> Spoken.compress("User", data.prompt(), true);
      case AGENT_RESPONSE -> Spoken.compress("Agent", data.message(), false);
      case PRE_TOOL_USE, POST_TOOL_USE, TOOL_FAILURE -> toolUse(observation.type(), tool, data);
      case SESSION_START, SESSION_END, PRE_COMPACT, SUBAGENT_START, SUBAGENT_STOP ->
          session(observation);
    };
  }

  @Override
  public String name() {
    return "synthetic";
  }

  private static CompressedObservation toolUse(
      LifecycleEventType hook, String tool, EventData data) {
    ToolPayload input = ToolPayload.of(data.input());
    ToolPayload output = ToolPayload.of(data.output());
    String error = data.error() == null ? "" : data.error();
    String command = input.field("command", "cmd", "script");
    if (command.isEmpty() && ToolFamily.of(tool, null) == ToolFamily.SHELL) {
      command = input.text();
    }
    command = TextCuts.firstLine(command, SCAN_WINDOW);
    ToolFamily family = ToolFamily.of(tool, command);
    String toolName = tool == null || tool.isBlank() ? "tool" : tool.strip();

    String primary = input.field("file_path", "path", "notebook_path", "filePath", "file");
    TokenScan scan = new TokenScan();
    scan.scan(input.text(), SCAN_WINDOW);
    Set<String> edited = new LinkedHashSet<>();
    String primaryFile = primary.isEmpty() ? null : TokenScan.asFile(primary.strip());
    if (primaryFile != null && primaryFile.length() <= MemoryDraft.MAX_FILE) {
      edited.add(primaryFile);
    }
    edited.addAll(scan.files);
    scan.scan(output.text(), SCAN_WINDOW).scan(error, SCAN_WINDOW);
    Set<String> files = new LinkedHashSet<>(edited);
    files.addAll(scan.files);

    RunSignals signals =
        hook == LifecycleEventType.PRE_TOOL_USE
            ? RunSignals.of(null)
            : RunSignals.of(runText(output, error));
    ObservationKind kind = kind(hook, family, signals, error);

    String subject;
    if ((family == ToolFamily.EDIT || family == ToolFamily.READ) && !edited.isEmpty()) {
      String first = edited.iterator().next();
      subject = edited.size() == 1 ? first : first + " and " + (edited.size() - 1) + " more files";
    } else if (!command.isEmpty()) {
      subject = command;
    } else {
      subject =
          TextCuts.firstLine(
              input.field("pattern", "query", "url", "description", "prompt").isEmpty()
                  ? input.text()
                  : input.field("pattern", "query", "url", "description", "prompt"),
              SCAN_WINDOW);
    }
    subject = TextCuts.atWord(TextCuts.flat(subject, SCAN_WINDOW), SUBJECT_LENGTH);
    String errorLine =
        !error.isBlank()
            ? TextCuts.atWord(TextCuts.firstLine(error, 4_096), 160)
            : signals.errorLine();
    String title = title(hook, family, kind, toolName, subject, signals, errorLine);

    List<String> facts = new ArrayList<>();
    if (family == ToolFamily.SHELL && !command.isEmpty()) {
      facts.add("Ran " + TextCuts.atWord(TextCuts.flat(command, SCAN_WINDOW), 200) + ".");
    }
    int shown = 0;
    for (String file : edited) {
      if (shown++ == 3) {
        break;
      }
      if (family == ToolFamily.EDIT) {
        facts.add((hook == LifecycleEventType.PRE_TOOL_USE ? "Editing " : "Edited ") + file + ".");
      } else if (family == ToolFamily.READ) {
        facts.add("Read " + file + ".");
      }
    }
    String lines = changedLines(input);
    if (family == ToolFamily.EDIT && !lines.isEmpty()) {
      facts.add(lines);
    }
    facts.addAll(signals.facts());
    String printed = TextCuts.flat(output.text(), OUTPUT_FACT + 200);
    if ((family == ToolFamily.SHELL || family == ToolFamily.READ)
        && hook != LifecycleEventType.PRE_TOOL_USE
        && signals.facts().isEmpty()
        && kind != ObservationKind.ERROR
        && !printed.isEmpty()) {
      // what a look-up printed is often the fact itself (a pinned version, an account id, a
      // remote's URL): keep the head of it where a summary is read
      facts.add("Output: " + TextCuts.asSentence(TextCuts.atWord(printed, OUTPUT_FACT)));
    }
    if (!errorLine.isEmpty() && (kind == ObservationKind.ERROR || !error.isBlank())) {
      facts.add("Error: " + TextCuts.asSentence(errorLine));
    }
    String lead =
        TextCuts.asSentence(
            toolName
                + (hook == LifecycleEventType.PRE_TOOL_USE ? " will run" : " ran")
                + (subject.isEmpty() ? "" : " on " + subject));
    String excerpt = TextCuts.flat(output.text().isEmpty() ? error : output.text(), 400);
    String narrative =
        String.join(" ", facts).isEmpty()
            ? lead + (excerpt.isEmpty() ? "" : " Output: " + excerpt)
            : (namesSubject(facts, subject) ? "" : lead + " ") + String.join(" ", facts);

    Concepts concepts = new Concepts().add(toolName);
    String program = ToolFamily.firstWord(command);
    concepts.add(ToolFamily.COMMAND_CONCEPTS.get(program));
    if (signals.facts().stream().anyMatch(f -> f.startsWith("Tests run:"))) {
      concepts.add("junit");
    }
    for (String file : files) {
      concepts.add(TokenScan.language(file));
    }
    concepts.addAll(scan.errorClasses).addAll(scan.identifiers);

    double importance = importance(kind, signals);
    if (hook == LifecycleEventType.PRE_TOOL_USE) {
      importance = Math.max(0.05, importance - 0.15);
    }
    return finish(title, facts, narrative, concepts.list(), files, kind, importance);
  }

  /** How much of a look-up's output a summary keeps: {@value} characters. */
  static final int OUTPUT_FACT = 240;

  /**
   * Whether the first fact already says what the tool ran on ("Ran git status.", "Read pom.xml."):
   * the lead ("Bash ran on git status.") would say it again, in the summary an injection shows and
   * in the text that is embedded, where every repeat of a long command leaves less room for what
   * the run printed.
   */
  private static boolean namesSubject(List<String> facts, String subject) {
    String named =
        subject.endsWith(TextCuts.ELLIPSIS)
            ? subject.substring(0, subject.length() - TextCuts.ELLIPSIS.length())
            : subject;
    return !named.isBlank() && !facts.isEmpty() && facts.get(0).contains(named);
  }

  private static String runText(ToolPayload output, String error) {
    String out = bounded(output.text());
    return error.isEmpty() ? out : out + "\n" + bounded(error);
  }

  /** A long text's head and tail, where the scanned windows lie, without copying the middle. */
  private static String bounded(String text) {
    int w = Math.max(SCAN_WINDOW, RunSignals.WINDOW);
    return text.length() <= 2 * w ? text : TextCuts.head(text, w) + "\n" + TextCuts.tail(text, w);
  }

  private static ObservationKind kind(
      LifecycleEventType hook, ToolFamily family, RunSignals signals, String error) {
    if (hook == LifecycleEventType.TOOL_FAILURE) {
      return ObservationKind.ERROR;
    }
    switch (family) {
      case EDIT:
        return ObservationKind.FILE_EDIT;
      case READ:
        return signals.exitCode() > 0 ? ObservationKind.ERROR : ObservationKind.FILE_READ;
      default:
        break;
    }
    if (signals.tests()) {
      return ObservationKind.TEST_RESULT;
    }
    boolean failed =
        signals.outcome() == RunSignals.Outcome.FAILED
            || !error.isBlank()
            || (signals.outcome() != RunSignals.Outcome.PASSED && !signals.errorLine().isEmpty());
    if (failed) {
      return ObservationKind.ERROR;
    }
    return family == ToolFamily.SHELL ? ObservationKind.COMMAND_RUN : ObservationKind.DISCOVERY;
  }

  private static String title(
      LifecycleEventType hook,
      ToolFamily family,
      ObservationKind kind,
      String tool,
      String subject,
      RunSignals signals,
      String errorLine) {
    if (hook == LifecycleEventType.TOOL_FAILURE) {
      return tool
          + " failed"
          + (subject.isEmpty() ? "" : " on " + subject)
          + (errorLine.isEmpty() ? "" : ": " + TextCuts.atWord(errorLine, 60));
    }
    boolean pre = hook == LifecycleEventType.PRE_TOOL_USE;
    String verb =
        switch (family) {
          case EDIT -> pre ? "Editing" : "Edited";
          case READ -> pre ? "Reading" : "Read";
          case SHELL -> pre ? "Running" : "Ran";
          case OTHER -> tool + (pre ? " starting:" : ":");
        };
    String title = subject.isEmpty() ? verb + " " + tool : verb + " " + subject;
    if (kind == ObservationKind.TEST_RESULT && !signals.label().isEmpty()) {
      return title + ": " + signals.label();
    }
    if (kind == ObservationKind.ERROR) {
      return title
          + (signals.exitCode() > 0 ? ": exit code " + signals.exitCode() : ": failed")
          + (errorLine.isEmpty() ? "" : " (" + TextCuts.atWord(errorLine, 60) + ")");
    }
    return title;
  }

  /**
   * "Replaced 3 lines with 5 lines." for an edit with old and new text, "Wrote 12 lines." for a
   * write.
   */
  private static String changedLines(ToolPayload input) {
    String oldText = input.field("old_string", "old_str", "oldText");
    String newText = input.field("new_string", "new_str", "newText");
    String content = input.field("content", "file_text");
    if (!oldText.isEmpty() || !newText.isEmpty()) {
      return "Replaced " + lines(oldText) + " with " + lines(newText) + ".";
    }
    return content.isEmpty() ? "" : "Wrote " + lines(content) + ".";
  }

  private static String lines(String text) {
    if (text.isEmpty()) {
      return "nothing";
    }
    long n = text.chars().filter(c -> c == '\n').count() + 1;
    return n == 1 ? "1 line" : n + " lines";
  }

  private static double importance(ObservationKind kind, RunSignals signals) {
    return switch (kind) {
      case ERROR -> 0.7;
      case TEST_RESULT -> signals.outcome() == RunSignals.Outcome.FAILED ? 0.65 : 0.5;
      case FILE_EDIT -> 0.5;
      case COMMAND_RUN -> 0.35;
      case FILE_READ -> 0.2;
      case DECISION -> 0.8;
      case PREFERENCE -> 0.85;
      case DISCOVERY -> 0.5;
      case CONVERSATION -> 0.4;
      case SESSION -> 0.2;
    };
  }

  private static CompressedObservation session(Observation o) {
    EventData data = o.data();
    String agent =
        data.agentName() == null ? "" : TextCuts.atWord(TextCuts.flat(data.agentName(), 400), 80);
    String title =
        switch (o.type()) {
          case SESSION_START ->
              "Session started"
                  + (o.project().isBlank()
                      ? ""
                      : " in " + TextCuts.atWord(TextCuts.flat(o.project(), 400), 120));
          case SESSION_END -> "Session ended";
          case PRE_COMPACT -> "Conversation compacted";
          case SUBAGENT_START -> "Subagent " + (agent.isEmpty() ? "" : agent + " ") + "started";
          default -> "Subagent " + (agent.isEmpty() ? "" : agent + " ") + "stopped";
        };
    List<String> facts = new ArrayList<>();
    if (o.type() == LifecycleEventType.SESSION_START && !o.cwd().isBlank()) {
      facts.add("Working directory: " + TextCuts.atWord(TextCuts.flat(o.cwd(), 1_000), 250) + ".");
    }
    String message = data.message() == null ? "" : data.message();
    String first = TextCuts.firstSentence(message, 4_096);
    if (!first.isEmpty() && o.type() != LifecycleEventType.PRE_COMPACT) {
      facts.add(TextCuts.asSentence(TextCuts.atWord(first, 250)));
    }
    String narrative =
        TextCuts.asSentence(title) + (message.isBlank() ? "" : " " + TextCuts.flat(message, 1_000));
    TokenScan scan = new TokenScan().scan(message, SCAN_WINDOW);
    Concepts concepts = new Concepts().add(agent).addAll(scan.identifiers);
    double importance =
        o.type() == LifecycleEventType.SUBAGENT_STOP && !message.isBlank() ? 0.3 : 0.2;
    return finish(
        title, facts, narrative, concepts.list(), scan.files, ObservationKind.SESSION, importance);
  }

  /** The answer, every part cut to its limit. */
  static CompressedObservation finish(
      String title,
      List<String> facts,
      String narrative,
      List<String> concepts,
      Set<String> files,
      ObservationKind kind,
      double importance) {
    String t =
        TextCuts.atWord(TextCuts.flat(title, 4 * MemoryDraft.MAX_TITLE), MemoryDraft.MAX_TITLE);
    if (t.isBlank()) {
      t = kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
    List<String> f = new ArrayList<>();
    for (String fact : new LinkedHashSet<>(facts)) {
      if (f.size() == MAX_FACTS) {
        break;
      }
      String cut = TextCuts.atWord(TextCuts.flat(fact, 4 * MAX_FACT), MAX_FACT);
      if (!cut.isBlank()) {
        f.add(cut);
      }
    }
    List<String> fileList = new ArrayList<>();
    for (String file : files) {
      if (fileList.size() == MemoryDraft.MAX_FILES) {
        break;
      }
      fileList.add(FieldText.cutEnd(file, MemoryDraft.MAX_FILE));
    }
    return new CompressedObservation(
        t,
        f,
        TextCuts.atWord(TextCuts.flat(narrative, 4 * NARRATIVE_LENGTH), NARRATIVE_LENGTH),
        concepts,
        fileList,
        kind,
        Math.min(1.0, Math.max(0.0, importance)));
  }
}
