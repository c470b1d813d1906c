package dev.memhook.api;

import dev.memhook.api.internal.BuilderSettings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a host knows about something worth remembering, before the service sanitizes, summarises,
 * embeds and stores it as a {@link Memory}.
 *
 * <p>Only the scope and the content are required. An empty title or summary is derived from the
 * content (the summary: its opening whole sentences, about 300 characters, or 500 for a {@link
 * MemoryType#BUG}, so that its fix is shown beside its report and cause); a null {@code occurredAt}
 * means "when it is stored".
 *
 * <p><b>Limits.</b> Every field has a maximum, stated by the {@code MAX_} constants below, and a
 * draft over one is rejected by its constructor with an {@link IllegalArgumentException} that names
 * the field and the limit, so nothing of it is ever written. The same limits hold for every stored
 * {@link Memory}. Sanitizing can make a field longer (a redaction marker may be longer than the
 * secret it replaces); a field that sanitizing pushes over its limit is cut with a visible {@value
 * #CUT_MARKER} marker at the end, and the {@link Memory} that {@code remember} returns is exactly
 * what a later {@code get} reads. The one field cut by design is {@code context}: a draft may carry
 * up to {@value #MAX_CONTENT} characters of it, of which the last {@value #MAX_CONTEXT} are kept,
 * after a leading {@value #CUT_MARKER}.
 *
 * <p>Immutable and thread-safe. Collections are copied. Null is accepted only for {@code
 * sourceSession} and {@code occurredAt}.
 *
 * @param scope the partition to store into
 * @param content the full text
 * @param type the kind of knowledge
 * @param title a short title, or empty to derive one
 * @param summary what a batched injection shows, or empty to derive one
 * @param context what came just before it, such as the previous turn; searchable at a lower weight,
 *     never shown as content; empty when none
 * @param concepts concept tags; blank entries are dropped
 * @param files file paths the memory is about; blank entries are dropped
 * @param sourceSession the session it came from, or null
 * @param origin who or what it came from
 * @param attributes host-defined string attributes
 * @param importance from 0 to 1
 * @param occurredAt when it happened, or null for "now"
 * @param sourcePins sources it was learnt from
 */
public record MemoryDraft(
    Scope scope,
    String content,
    MemoryType type,
    String title,
    String summary,
    String context,
    List<String> concepts,
    List<String> files,
    String sourceSession,
    Origin origin,
    Map<String, String> attributes,
    double importance,
    Instant occurredAt,
    List<SourcePin> sourcePins) {

  /** The longest content, in characters. */
  public static final int MAX_CONTENT = 100_000;

  /** The longest title, in characters. */
  public static final int MAX_TITLE = 200;

  /** The longest summary, in characters. */
  public static final int MAX_SUMMARY = 1_000;

  /**
   * The longest context a memory keeps, in characters; a draft may carry up to {@value
   * #MAX_CONTENT}, and the end is kept.
   */
  public static final int MAX_CONTEXT = 4_000;

  /** The most concepts. */
  public static final int MAX_CONCEPTS = 50;

  /** The longest concept, in characters. */
  public static final int MAX_CONCEPT = 100;

  /** The most files. */
  public static final int MAX_FILES = 100;

  /** The longest file path, in characters. */
  public static final int MAX_FILE = 500;

  /** The longest source session id, in characters. */
  public static final int MAX_SESSION = 200;

  /** The longest origin name, in characters. */
  public static final int MAX_ORIGIN_NAME = 200;

  /** The most attributes. */
  public static final int MAX_ATTRIBUTES = 50;

  /** The longest attribute key, in characters. */
  public static final int MAX_ATTRIBUTE_KEY = 100;

  /** The longest attribute value, in characters. */
  public static final int MAX_ATTRIBUTE_VALUE = 1_000;

  /** The most source pins. */
  public static final int MAX_SOURCE_PINS = 50;

  /** The longest source pin path, in characters. */
  public static final int MAX_PIN_PATH = 500;

  /** The longest source pin digest, in characters. */
  public static final int MAX_PIN_DIGEST = 200;

  /** What ends (or, for context, starts) a field that had to be cut. */
  public static final String CUT_MARKER = "[…cut]";

  /** Validates against the limits and copies. */
  public MemoryDraft {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(origin, "origin");
    if (content.isBlank()) {
      throw new IllegalArgumentException("content must not be blank");
    }
    FieldLimits.length("content", content, MAX_CONTENT);
    FieldLimits.length("title", title, MAX_TITLE);
    FieldLimits.length("summary", summary, MAX_SUMMARY);
    FieldLimits.length("context", context, MAX_CONTENT);
    if (!(importance >= 0.0 && importance <= 1.0)) {
      throw new IllegalArgumentException("importance must be in [0, 1], got " + importance);
    }
    FieldLimits.optional("sourceSession", sourceSession, MAX_SESSION);
    concepts = FieldLimits.strings("concepts", concepts, MAX_CONCEPTS, MAX_CONCEPT, true);
    files = FieldLimits.strings("files", files, MAX_FILES, MAX_FILE, true);
    attributes = FieldLimits.attributes(attributes);
    sourcePins = FieldLimits.pins(sourcePins);
  }

  /** A draft of {@code content} in {@code scope} with every other component at its default. */
  public static MemoryDraft of(Scope scope, String content) {
    return builder(scope, content).build();
  }

  /** A builder for a draft of {@code content} in {@code scope}. */
  public static Builder builder(Scope scope, String content) {
    return new Builder(scope, content);
  }

  /**
   * Builds a {@link MemoryDraft}. Not thread-safe. Defaults: type {@link MemoryType#OBSERVATION},
   * empty title and summary (derived), no context, no concepts, files, attributes or pins, origin
   * {@link Origin#user()}, importance 0.5, no session, occurred "now".
   */
  public static final class Builder {
    private final Scope scope;
    private final String content;
    private MemoryType type = MemoryType.OBSERVATION;
    private String title = "";
    private String summary = "";
    private String context = "";
    private List<String> concepts = List.of();
    private List<String> files = List.of();
    private String sourceSession;
    private Origin origin = Origin.user();
    private Map<String, String> attributes = Map.of();
    private double importance = 0.5;
    private Instant occurredAt;
    private List<SourcePin> sourcePins = List.of();

    private final BuilderSettings settings = new BuilderSettings();

    private Builder(Scope scope, String content) {
      this.scope = Objects.requireNonNull(scope, "scope");
      this.content = Objects.requireNonNull(content, "content");
    }

    public Builder type(MemoryType value) {
      settings.checkUnset("type");
      this.type = Objects.requireNonNull(value, "type");
      return settings.recorded(this, "type");
    }

    public Builder title(String value) {
      settings.checkUnset("title");
      this.title = Objects.requireNonNull(value, "title");
      return settings.recorded(this, "title");
    }

    public Builder summary(String value) {
      settings.checkUnset("summary");
      this.summary = Objects.requireNonNull(value, "summary");
      return settings.recorded(this, "summary");
    }

    /**
     * What came just before it, such as the previous turn; at most {@value #MAX_CONTENT}
     * characters, of which the last {@value #MAX_CONTEXT} are kept.
     */
    public Builder context(String value) {
      settings.checkUnset("context");
      this.context = Objects.requireNonNull(value, "context");
      return settings.recorded(this, "context");
    }

    public Builder concepts(List<String> value) {
      settings.checkUnset("concepts");
      this.concepts = Objects.requireNonNull(value, "concepts");
      return settings.recorded(this, "concepts");
    }

    public Builder files(List<String> value) {
      settings.checkUnset("files");
      this.files = Objects.requireNonNull(value, "files");
      return settings.recorded(this, "files");
    }

    /** Sets the session; null clears it. */
    public Builder sourceSession(String value) {
      settings.checkUnset("sourceSession");
      this.sourceSession = value;
      return settings.recorded(this, "sourceSession");
    }

    public Builder origin(Origin value) {
      settings.checkUnset("origin");
      this.origin = Objects.requireNonNull(value, "origin");
      return settings.recorded(this, "origin");
    }

    public Builder attributes(Map<String, String> value) {
      settings.checkUnset("attributes");
      this.attributes = Objects.requireNonNull(value, "attributes");
      return settings.recorded(this, "attributes");
    }

    /** Sets the importance; must be in [0, 1]. */
    public Builder importance(double value) {
      settings.checkUnset("importance");
      if (!(value >= 0.0 && value <= 1.0)) {
        throw new IllegalArgumentException("importance must be in [0, 1], got " + value);
      }
      this.importance = value;
      return settings.recorded(this, "importance");
    }

    /** Sets when it happened; null means "when stored". */
    public Builder occurredAt(Instant value) {
      settings.checkUnset("occurredAt");
      this.occurredAt = value;
      return settings.recorded(this, "occurredAt");
    }

    public Builder sourcePins(List<SourcePin> value) {
      settings.checkUnset("sourcePins");
      this.sourcePins = Objects.requireNonNull(value, "sourcePins");
      return settings.recorded(this, "sourcePins");
    }

    /** Builds the draft. */
    public MemoryDraft build() {
      return new MemoryDraft(
          scope,
          content,
          type,
          title,
          summary,
          context,
          concepts,
          files,
          sourceSession,
          origin,
          attributes,
          importance,
          occurredAt,
          sourcePins);
    }
  }
}
