package dev.memhook.core.internal.observe;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Turns what a host hands in (a {@link MemoryDraft}) into a storable {@link Memory}: validate,
 * sanitize every free-text field, attribute, and complete the title and summary when the host gave
 * none (the local, synthetic compression). Nothing is stored here; a draft that breaks a limit is
 * rejected whole with an {@link IllegalArgumentException} naming the limit.
 *
 * <p>Stateless apart from its clock and sanitizer; thread-safe.
 */
public final class MemoryIntake {

  /** Derived titles are cut at a word boundary near this length. */
  static final int DERIVED_TITLE_LENGTH = 80;

  /** Derived summaries are cut at a sentence or word boundary near this length. */
  static final int DERIVED_SUMMARY_LENGTH = 300;

  private final Clock clock;
  private final Sanitizer sanitizer;

  public MemoryIntake(Clock clock, Sanitizer sanitizer) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
  }

  /** A new version-1 memory from {@code draft}. */
  public Memory newMemory(MemoryDraft draft) {
    return build(draft, MemoryId.random(), 1, null);
  }

  /** Version {@code previous.version() + 1} of {@code previous}, with the draft's content. */
  public Memory nextVersion(Memory previous, MemoryDraft draft) {
    checkArgument(
        previous.scope().equals(draft.scope()),
        "an update must stay in scope %s, got %s",
        previous.scope(),
        draft.scope());
    return build(draft, MemoryId.random(), previous.version() + 1, previous.id());
  }

  private Memory build(MemoryDraft draft, MemoryId id, int version, MemoryId supersedes) {
    String content = sanitizer.sanitize(draft.content()).strip();
    checkArgument(!content.isEmpty(), "content is empty after sanitizing");
    checkArgument(
        content.length() <= Memory.MAX_CONTENT,
        "content must be at most %s characters, got %s; split it into several memories",
        Memory.MAX_CONTENT,
        content.length());
    String title = sanitizer.sanitize(draft.title()).strip();
    checkArgument(
        title.length() <= Memory.MAX_TITLE,
        "title must be at most %s characters, got %s",
        Memory.MAX_TITLE,
        title.length());
    String summary = sanitizer.sanitize(draft.summary()).strip();
    checkArgument(
        summary.length() <= Memory.MAX_SUMMARY,
        "summary must be at most %s characters, got %s",
        Memory.MAX_SUMMARY,
        summary.length());
    String context = sanitizer.sanitize(draft.context()).strip();
    if (context.length() > Memory.MAX_CONTEXT) {
      // context only helps search; its most recent part (the end) matters most, so keep that
      context = context.substring(context.length() - Memory.MAX_CONTEXT);
    }
    Instant now = clock.instant();
    Origin origin =
        draft.origin().name() == null
            ? draft.origin()
            : new Origin(draft.origin().kind(), sanitizer.sanitize(draft.origin().name()));
    Map<String, String> attributes = new LinkedHashMap<>();
    draft.attributes().forEach((k, v) -> attributes.put(k, sanitizer.sanitize(v)));
    return Memory.builder()
        .id(id)
        .type(draft.type())
        .title(title.isEmpty() ? deriveTitle(content) : title)
        .summary(summary.isEmpty() ? deriveSummary(content) : summary)
        .content(content)
        .context(context)
        .concepts(normalizeConcepts(draft.concepts()))
        .files(normalizeFiles(draft.files()))
        .scope(draft.scope())
        .sourceSession(draft.sourceSession())
        .origin(origin)
        .attributes(attributes)
        .importance(draft.importance())
        .version(version)
        .supersedes(supersedes)
        .latest(true)
        .occurredAt(draft.occurredAt() == null ? now : draft.occurredAt())
        .createdAt(now)
        .sourcePins(draft.sourcePins())
        .build();
  }

  /** The first line of the content, cut at a word boundary near {@value #DERIVED_TITLE_LENGTH}. */
  static String deriveTitle(String content) {
    String firstLine =
        content.lines().filter(l -> !l.isBlank()).findFirst().orElse(content).strip();
    return cut(firstLine, DERIVED_TITLE_LENGTH);
  }

  /** Whole sentences from the start, up to about {@value #DERIVED_SUMMARY_LENGTH} characters. */
  static String deriveSummary(String content) {
    String flat = content.replaceAll("\\s+", " ").strip();
    if (flat.length() <= DERIVED_SUMMARY_LENGTH) {
      return flat;
    }
    int end = -1;
    for (int i = 0; i < DERIVED_SUMMARY_LENGTH; i++) {
      char c = flat.charAt(i);
      if ((c == '.' || c == '!' || c == '?')
          && i + 1 < flat.length()
          && flat.charAt(i + 1) == ' ') {
        end = i + 1;
      }
    }
    return end >= DERIVED_SUMMARY_LENGTH / 3
        ? flat.substring(0, end)
        : cut(flat, DERIVED_SUMMARY_LENGTH);
  }

  private static String cut(String text, int length) {
    if (text.length() <= length) {
      return text;
    }
    int space = text.lastIndexOf(' ', length - 1);
    int end = space >= length / 2 ? space : length - 1;
    return text.substring(0, end).strip() + "…";
  }

  private List<String> normalizeConcepts(List<String> concepts) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String c : concepts) {
      Objects.requireNonNull(c, "concept");
      String n = sanitizer.sanitize(c).strip().toLowerCase(Locale.ROOT);
      if (!n.isEmpty()) {
        out.add(n.length() > 100 ? n.substring(0, 100) : n);
      }
    }
    return new ArrayList<>(out);
  }

  private static List<String> normalizeFiles(List<String> files) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String f : files) {
      Objects.requireNonNull(f, "file");
      String n = f.strip().replace('\\', '/');
      if (!n.isEmpty()) {
        if (n.length() > 500) {
          throw new IllegalArgumentException(
              "file path must be at most 500 characters: " + n.substring(0, 40) + "…");
        }
        out.add(n);
      }
    }
    return new ArrayList<>(out);
  }
}
