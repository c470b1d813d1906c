package dev.memhook.core.internal.observe;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.SourcePin;
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
import java.util.regex.Pattern;

/**
 * Turns what a host hands in (a {@link MemoryDraft}) into a storable {@link Memory}: sanitize every
 * string field (content, title, summary, context, concepts, files, session, origin name, attribute
 * keys and values, source pins; and the actor and reason of a forget), attribute, and complete the
 * title and summary when the host gave none (the local, synthetic compression). The draft itself
 * enforces the field limits; what sanitizing pushes over one is cut visibly ({@link FieldText}).
 * Nothing is stored here; a draft that cannot become a memory is rejected whole with an {@link
 * IllegalArgumentException}.
 *
 * <p>Stateless apart from its clock and sanitizer; thread-safe.
 */
public final class MemoryIntake {
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  /** Derived titles are cut at a word boundary near this length. */
  static final int DERIVED_TITLE_LENGTH = 80;

  /** Derived summaries are cut at a sentence or word boundary near this length. */
  static final int DERIVED_SUMMARY_LENGTH = 300;

  /**
   * A {@link MemoryType#BUG}'s derived summary is cut near this length instead: a bug tells what
   * was reported, its cause and its fix, and a later session asking about it needs the fix, which
   * the general length mostly cuts off.
   */
  static final int DERIVED_BUG_SUMMARY_LENGTH = 500;

  private final Clock clock;
  private final Sanitizer sanitizer;

  public MemoryIntake(Clock clock, Sanitizer sanitizer) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
  }

  /** A new version-1 memory from {@code draft}. */
  public Memory newMemory(MemoryDraft draft) {
    return build(draft, MemoryId.random(), 1, null, null);
  }

  /**
   * A new version-1 memory from {@code draft} with the given id, created when it was captured: the
   * capture pipeline derives an observation's id from its event, so a redelivered or replayed event
   * maps to the same memory, and its creation time is when {@code observe} accepted it, also when
   * it is replayed after a crash (its event time is the draft's {@code occurredAt}).
   */
  public Memory newMemory(MemoryDraft draft, MemoryId id, Instant capturedAt) {
    return build(
        draft,
        Objects.requireNonNull(id, "id"),
        1,
        null,
        Objects.requireNonNull(capturedAt, "capturedAt"));
  }

  /** Version {@code previous.version() + 1} of {@code previous}, with the draft's content. */
  public Memory nextVersion(Memory previous, MemoryDraft draft) {
    checkArgument(
        previous.scope().equals(draft.scope()),
        "an update must stay in scope %s, got %s",
        previous.scope(),
        draft.scope());
    return build(draft, MemoryId.random(), previous.version() + 1, previous.id(), null);
  }

  /**
   * {@code memory} with every text sanitized and cut as a draft's is, and everything else kept: a
   * memory restored from an export keeps its id, version and times.
   *
   * @throws IllegalArgumentException if its content is empty once sanitized
   */
  public Memory restored(Memory memory) {
    String content = clean(memory.content());
    checkArgument(
        !FieldText.isOnlyPrivate(content),
        "content of %s is empty after sanitizing; nothing was stored",
        memory.id());
    Map<String, String> attributes = attributes(memory.attributes());
    return memory.toBuilder()
        .content(FieldText.cutEnd(content, MemoryDraft.MAX_CONTENT))
        .title(FieldText.cutEnd(clean(memory.title()), MemoryDraft.MAX_TITLE))
        .summary(FieldText.cutEnd(clean(memory.summary()), MemoryDraft.MAX_SUMMARY))
        .context(FieldText.cutStart(clean(memory.context()), MemoryDraft.MAX_CONTEXT))
        .sourceSession(optional(memory.sourceSession(), MemoryDraft.MAX_SESSION))
        .origin(origin(memory.origin()))
        .attributes(attributes)
        .concepts(normalizeConcepts(memory.concepts()))
        .files(normalizeFiles(memory.files()))
        .sourcePins(pins(memory.sourcePins()))
        .build();
  }

  /** Who asked for a forget and why, sanitized: what each {@link ForgetRecord} of it says. */
  public record ForgetRequest(String actor, String reason, Instant at) {
    /**
     * The audit records of removing {@code memories} in one write, one per memory in their order,
     * each listing all their ids.
     *
     * @throws IllegalArgumentException if they are more than {@link ForgetRecord#MAX_REMOVED} or
     *     two share an id
     */
    public List<ForgetRecord> recordsFor(List<Memory> memories) {
      List<MemoryId> ids = memories.stream().map(Memory::id).toList();
      return memories.stream()
          .map(m -> new ForgetRecord(m.id(), m.scope(), actor, reason, at, ids))
          .toList();
    }
  }

  /**
   * A forget by {@code actor} for {@code reason}, both sanitized like any other stored text.
   *
   * @throws IllegalArgumentException if the actor is blank, or either is over its limit on {@link
   *     ForgetRecord}
   */
  public ForgetRequest forgetRequest(String actor, String reason) {
    checkArgument(!actor.isBlank(), "actor must not be blank");
    checkArgument(
        actor.length() <= ForgetRecord.MAX_ACTOR,
        "actor must be at most %s characters, got %s",
        ForgetRecord.MAX_ACTOR,
        actor.length());
    checkArgument(
        reason.length() <= ForgetRecord.MAX_REASON,
        "reason must be at most %s characters, got %s",
        ForgetRecord.MAX_REASON,
        reason.length());
    String cleanActor = clean(actor);
    return new ForgetRequest(
        FieldText.cutEnd(cleanActor.isEmpty() ? "[redacted]" : cleanActor, ForgetRecord.MAX_ACTOR),
        FieldText.cutEnd(clean(reason), ForgetRecord.MAX_REASON),
        clock.instant());
  }

  private Memory build(
      MemoryDraft draft, MemoryId id, int version, MemoryId supersedes, Instant createdAt) {
    String content = clean(draft.content());
    checkArgument(
        !FieldText.isOnlyPrivate(content),
        "content is empty after sanitizing (nothing but private regions or stray tags); nothing was stored");
    content = FieldText.cutEnd(content, MemoryDraft.MAX_CONTENT);
    String title = FieldText.cutEnd(clean(draft.title()), MemoryDraft.MAX_TITLE);
    String summary = FieldText.cutEnd(clean(draft.summary()), MemoryDraft.MAX_SUMMARY);
    // context only helps search; its most recent part (the end) matters most, so keep that
    String context = FieldText.cutStart(clean(draft.context()), MemoryDraft.MAX_CONTEXT);
    Instant now = createdAt != null ? createdAt : clock.instant();
    return Memory.builder()
        .id(id)
        .type(draft.type())
        .title(title.isEmpty() ? deriveTitle(content) : title)
        .summary(summary.isEmpty() ? deriveSummary(content, draft.type()) : summary)
        .content(content)
        .context(context)
        .concepts(normalizeConcepts(draft.concepts()))
        .files(normalizeFiles(draft.files()))
        .scope(draft.scope())
        .sourceSession(optional(draft.sourceSession(), MemoryDraft.MAX_SESSION))
        .origin(origin(draft.origin()))
        .attributes(attributes(draft.attributes()))
        .importance(draft.importance())
        .version(version)
        .supersedes(supersedes)
        .latest(true)
        .occurredAt(draft.occurredAt() == null ? now : draft.occurredAt())
        .createdAt(now)
        .sourcePins(pins(draft.sourcePins()))
        .build();
  }

  private String clean(String text) {
    return FieldText.clean(sanitizer, text);
  }

  /** A sanitized optional field: null stays null, and so does one that sanitizing empties. */
  private String optional(String text, int max) {
    if (text == null) {
      return null;
    }
    String clean = clean(text);
    return clean.isEmpty() ? null : FieldText.cutEnd(clean, max);
  }

  private Origin origin(Origin origin) {
    return new Origin(origin.kind(), optional(origin.name(), MemoryDraft.MAX_ORIGIN_NAME));
  }

  private Map<String, String> attributes(Map<String, String> given) {
    Map<String, String> out = new LinkedHashMap<>();
    given.forEach(
        (k, v) -> {
          String key = clean(k);
          key = FieldText.cutEnd(key.isEmpty() ? "[redacted]" : key, MemoryDraft.MAX_ATTRIBUTE_KEY);
          // the value of a key that names a secret goes whole: the pair is never text to redact
          String value =
              FieldText.cutEnd(
                  FieldText.cleanValue(sanitizer, k, v), MemoryDraft.MAX_ATTRIBUTE_VALUE);
          if (out.putIfAbsent(key, value) != null) {
            throw new IllegalArgumentException(
                "two attribute keys read '"
                    + key
                    + "' once sanitized (a key held a secret or private region); rename one");
          }
        });
    return out;
  }

  private List<SourcePin> pins(List<SourcePin> given) {
    List<SourcePin> out = new ArrayList<>(given.size());
    for (SourcePin pin : given) {
      String path = clean(pin.path());
      String digest = clean(pin.digest());
      out.add(
          new SourcePin(
              FieldText.cutEnd(path.isEmpty() ? "[redacted]" : path, MemoryDraft.MAX_PIN_PATH),
              FieldText.cutEnd(
                  digest.isEmpty() ? "[redacted]" : digest, MemoryDraft.MAX_PIN_DIGEST)));
    }
    return out;
  }

  /** The first line of the content, cut at a word boundary near {@value #DERIVED_TITLE_LENGTH}. */
  static String deriveTitle(String content) {
    String firstLine =
        content.lines().filter(l -> !l.isBlank()).findFirst().orElse(content).strip();
    return cut(firstLine, DERIVED_TITLE_LENGTH);
  }

  /**
   * Whole sentences from the start, up to about {@value #DERIVED_SUMMARY_LENGTH} characters, or
   * {@value #DERIVED_BUG_SUMMARY_LENGTH} for a {@link MemoryType#BUG}.
   */
  static String deriveSummary(String content, MemoryType type) {
    int length = type == MemoryType.BUG ? DERIVED_BUG_SUMMARY_LENGTH : DERIVED_SUMMARY_LENGTH;
    String flat = WHITESPACE.matcher(content).replaceAll(" ").strip();
    if (flat.length() <= length) {
      return flat;
    }
    int end = -1;
    for (int i = 0; i < length; i++) {
      char c = flat.charAt(i);
      if ((c == '.' || c == '!' || c == '?')
          && i + 1 < flat.length()
          && flat.charAt(i + 1) == ' ') {
        end = i + 1;
      }
    }
    return end >= length / 3 ? flat.substring(0, end) : cut(flat, length);
  }

  private static String cut(String text, int length) {
    if (text.length() <= length) {
      return text;
    }
    int space = text.lastIndexOf(' ', length - 1);
    int end = space >= length / 2 ? space : length - 1;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--; // never split a pair: the half left would not survive storing
    }
    return text.substring(0, end).strip() + "…";
  }

  private List<String> normalizeConcepts(List<String> concepts) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String c : concepts) {
      String n = clean(c).toLowerCase(Locale.ROOT);
      if (!n.isEmpty()) {
        out.add(FieldText.cutEnd(n, MemoryDraft.MAX_CONCEPT));
      }
    }
    return new ArrayList<>(out);
  }

  private List<String> normalizeFiles(List<String> files) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String f : files) {
      String n = clean(f).replace('\\', '/');
      if (!n.isEmpty()) {
        out.add(FieldText.cutEnd(n, MemoryDraft.MAX_FILE));
      }
    }
    return new ArrayList<>(out);
  }
}
