package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import dev.memhook.api.capture.Session;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a session did, in a few sentences, for {@link Session#summary()}: how it began (the first
 * prompt), how many observations of each kind it has, which files it edited (or touched), and how
 * the last test run went. At most {@link MemoryDraft#MAX_SUMMARY} characters.
 *
 * <p>Stateless and thread-safe.
 */
public final class SessionSummary {

  private static final int FILES_SHOWN = 5;

  private SessionSummary() {}

  /** The summary of {@code session} from its stored observations, oldest first. */
  public static String of(Session session, List<Memory> observations) {
    List<ObservationView> views = new ArrayList<>();
    observations.forEach(m -> views.add(ObservationView.of(m)));
    StringBuilder sb = new StringBuilder();
    String first = session.firstPrompt();
    if (first == null || first.isBlank()) {
      first =
          views.stream()
              .filter(v -> v.type() == LifecycleEventType.PROMPT_SUBMIT)
              .map(ObservationView::said)
              .findFirst()
              .orElse("");
    }
    if (!first.isBlank()) {
      sb.append("Began with: \"")
          .append(TextCuts.atWord(TextCuts.flat(first, 1_000), 150))
          .append("\". ");
    }
    Map<ObservationKind, Integer> counts = new EnumMap<>(ObservationKind.class);
    Set<String> edited = new LinkedHashSet<>();
    Set<String> touched = new LinkedHashSet<>();
    ObservationView lastTests = null;
    for (ObservationView v : views) {
      counts.merge(v.kind(), 1, Integer::sum);
      touched.addAll(v.memory().files());
      if (v.kind() == ObservationKind.FILE_EDIT) {
        edited.addAll(v.memory().files());
      }
      if (v.kind() == ObservationKind.TEST_RESULT) {
        lastTests = v;
      }
    }
    sb.append(views.size()).append(views.size() == 1 ? " observation" : " observations");
    List<String> parts = new ArrayList<>();
    counts.forEach((kind, n) -> parts.add(n + " " + label(kind, n)));
    sb.append(parts.isEmpty() ? "." : ": " + String.join(", ", parts) + ".");
    Set<String> files = edited.isEmpty() ? touched : edited;
    if (!files.isEmpty()) {
      List<String> shown = new ArrayList<>(files).subList(0, Math.min(FILES_SHOWN, files.size()));
      sb.append(edited.isEmpty() ? " Files touched: " : " Files edited: ")
          .append(String.join(", ", shown))
          .append(
              files.size() > FILES_SHOWN ? " and " + (files.size() - FILES_SHOWN) + " more." : ".");
    }
    if (lastTests != null) {
      String state =
          switch (lastTests.outcome()) {
            case PASSED -> "passing";
            case FAILED -> "failing";
            default -> "unknown";
          };
      sb.append(" Tests at the end: ")
          .append(state)
          .append(" (")
          .append(TextCuts.atWord(lastTests.memory().title(), 120))
          .append(").");
    }
    return TextCuts.atWord(sb.toString(), MemoryDraft.MAX_SUMMARY);
  }

  private static String label(ObservationKind kind, int n) {
    boolean one = n == 1;
    return switch (kind) {
      case FILE_EDIT -> one ? "file edit" : "file edits";
      case FILE_READ -> one ? "file read" : "file reads";
      case COMMAND_RUN -> one ? "command" : "commands";
      case TEST_RESULT -> one ? "test run" : "test runs";
      case ERROR -> one ? "error" : "errors";
      case DECISION -> one ? "decision" : "decisions";
      case DISCOVERY -> one ? "discovery" : "discoveries";
      case PREFERENCE -> one ? "preference" : "preferences";
      case CONVERSATION -> one ? "conversation turn" : "conversation turns";
      case SESSION -> one ? "session event" : "session events";
    };
  }
}
