package dev.memhook.api;

import dev.memhook.api.internal.BuilderSettings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One stored memory version: what the batched injection shows ({@link #summary()}), what a full
 * fetch shows ({@link #content()}), and what makes it findable besides its text (who said it, when,
 * in which session, which concepts and files it touches).
 *
 * <p>Memories are made by {@link MemoryService#remember(MemoryDraft)} and {@link
 * MemoryService#update(MemoryId, MemoryDraft)}; stores rebuild them with {@link #builder()}.
 * Updating writes a new version whose {@link #supersedes()} names the old id; the old version is
 * kept with {@link #latest()} false and is never recalled.
 *
 * <p>Every component is within the limits stated on {@link MemoryDraft}, so whatever a store holds
 * fits them too.
 *
 * <p>Immutable and thread-safe. Collections are copied and unmodifiable. All components are
 * non-null except {@link #sourceSession()} and {@link #supersedes()}, which are null when absent.
 *
 * @param id this version's id
 * @param type what kind of knowledge this is
 * @param title a short title, at most {@value MemoryDraft#MAX_TITLE} characters
 * @param summary what a batched injection shows, at most {@value MemoryDraft#MAX_SUMMARY}
 *     characters
 * @param content the full text a {@code get_memory(id)} call returns
 * @param context what came just before it (such as the previous turn of the conversation), at most
 *     {@value MemoryDraft#MAX_CONTEXT} characters; searchable at a lower weight, never shown as
 *     content; empty when none
 * @param concepts lower-case concept tags used by the graph signal
 * @param files file paths the memory is about, used by the graph signal
 * @param scope the partition this memory belongs to
 * @param sourceSession the session it came from, or null
 * @param origin who or what it came from
 * @param attributes host-defined string attributes, searchable as text
 * @param importance how much it matters, from 0 to 1
 * @param version 1 for a new memory, n+1 for an update of version n
 * @param supersedes the id of the version this one replaces, or null
 * @param latest whether this is the newest version (only latest versions are recalled)
 * @param occurredAt when the remembered thing happened (may differ from when it was stored)
 * @param createdAt when this version was stored
 * @param sourcePins the sources this memory was learnt from
 */
public record Memory(
    MemoryId id,
    MemoryType type,
    String title,
    String summary,
    String content,
    String context,
    List<String> concepts,
    List<String> files,
    Scope scope,
    String sourceSession,
    Origin origin,
    Map<String, String> attributes,
    double importance,
    int version,
    MemoryId supersedes,
    boolean latest,
    Instant occurredAt,
    Instant createdAt,
    List<SourcePin> sourcePins) {

  /** Validates the components and copies the collections. */
  public Memory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(occurredAt, "occurredAt");
    Objects.requireNonNull(createdAt, "createdAt");
    FieldLimits.length("title", title, MemoryDraft.MAX_TITLE);
    FieldLimits.length("summary", summary, MemoryDraft.MAX_SUMMARY);
    FieldLimits.length("content", content, MemoryDraft.MAX_CONTENT);
    FieldLimits.length("context", context, MemoryDraft.MAX_CONTEXT);
    if (content.isBlank()) {
      throw new IllegalArgumentException("memory content must not be blank");
    }
    if (!(importance >= 0.0 && importance <= 1.0)) {
      throw new IllegalArgumentException("importance must be in [0, 1], got " + importance);
    }
    if (version < 1) {
      throw new IllegalArgumentException("version must be >= 1, got " + version);
    }
    if (version == 1 && supersedes != null) {
      throw new IllegalArgumentException("version 1 cannot supersede " + supersedes);
    }
    if (version > 1 && supersedes == null) {
      throw new IllegalArgumentException(
          "version " + version + " must name the version it supersedes");
    }
    FieldLimits.optional("sourceSession", sourceSession, MemoryDraft.MAX_SESSION);
    concepts =
        FieldLimits.strings(
            "concepts", concepts, MemoryDraft.MAX_CONCEPTS, MemoryDraft.MAX_CONCEPT, false);
    files = FieldLimits.strings("files", files, MemoryDraft.MAX_FILES, MemoryDraft.MAX_FILE, false);
    attributes = FieldLimits.attributes(attributes);
    sourcePins = FieldLimits.pins(sourcePins);
  }

  /** A builder with no values set; {@link Builder#build()} says which are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding every component of this memory, to derive a changed copy. The copied values
   * are where it starts: each setter may still be called once.
   */
  public Builder toBuilder() {
    Builder b =
        new Builder()
            .id(id)
            .type(type)
            .title(title)
            .summary(summary)
            .content(content)
            .context(context)
            .concepts(concepts)
            .files(files)
            .scope(scope)
            .sourceSession(sourceSession)
            .origin(origin)
            .attributes(attributes)
            .importance(importance)
            .version(version)
            .supersedes(supersedes)
            .latest(latest)
            .occurredAt(occurredAt)
            .createdAt(createdAt)
            .sourcePins(sourcePins);
    b.settings.clear();
    return b;
  }

  /** This memory with {@link #latest()} set to {@code value}. */
  public Memory withLatest(boolean value) {
    return value == latest ? this : toBuilder().latest(value).build();
  }

  /**
   * Builds a {@link Memory}. Not thread-safe. Required: id, scope, content; the rest default to:
   * type {@link MemoryType#OBSERVATION}, empty title, summary and collections, origin {@link
   * Origin#user()}, importance 0.5, version 1, latest true, both instants required unless set.
   */
  public static final class Builder {
    private MemoryId id;
    private MemoryType type = MemoryType.OBSERVATION;
    private String title = "";
    private String summary = "";
    private String content;
    private String context = "";
    private List<String> concepts = List.of();
    private List<String> files = List.of();
    private Scope scope;
    private String sourceSession;
    private Origin origin = Origin.user();
    private Map<String, String> attributes = Map.of();
    private double importance = 0.5;
    private int version = 1;
    private MemoryId supersedes;
    private boolean latest = true;
    private Instant occurredAt;
    private Instant createdAt;
    private List<SourcePin> sourcePins = List.of();

    private final BuilderSettings settings = new BuilderSettings();

    private Builder() {}

    public Builder id(MemoryId value) {
      settings.checkUnset("id");
      this.id = Objects.requireNonNull(value, "id");
      return settings.recorded(this, "id");
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

    public Builder content(String value) {
      settings.checkUnset("content");
      this.content = Objects.requireNonNull(value, "content");
      return settings.recorded(this, "content");
    }

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

    public Builder scope(Scope value) {
      settings.checkUnset("scope");
      this.scope = Objects.requireNonNull(value, "scope");
      return settings.recorded(this, "scope");
    }

    /** Sets the source session; null clears it. */
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

    public Builder importance(double value) {
      settings.checkUnset("importance");
      this.importance = value;
      return settings.recorded(this, "importance");
    }

    public Builder version(int value) {
      settings.checkUnset("version");
      this.version = value;
      return settings.recorded(this, "version");
    }

    /** Sets the superseded version; null clears it. */
    public Builder supersedes(MemoryId value) {
      settings.checkUnset("supersedes");
      this.supersedes = value;
      return settings.recorded(this, "supersedes");
    }

    public Builder latest(boolean value) {
      settings.checkUnset("latest");
      this.latest = value;
      return settings.recorded(this, "latest");
    }

    public Builder occurredAt(Instant value) {
      settings.checkUnset("occurredAt");
      this.occurredAt = Objects.requireNonNull(value, "occurredAt");
      return settings.recorded(this, "occurredAt");
    }

    public Builder createdAt(Instant value) {
      settings.checkUnset("createdAt");
      this.createdAt = Objects.requireNonNull(value, "createdAt");
      return settings.recorded(this, "createdAt");
    }

    public Builder sourcePins(List<SourcePin> value) {
      settings.checkUnset("sourcePins");
      this.sourcePins = Objects.requireNonNull(value, "sourcePins");
      return settings.recorded(this, "sourcePins");
    }

    /**
     * Builds the memory.
     *
     * @throws NullPointerException if id, scope, content, occurredAt or createdAt was not set
     * @throws IllegalArgumentException if a value breaks a rule stated on {@link Memory}
     */
    public Memory build() {
      return new Memory(
          id,
          type,
          title,
          summary,
          content,
          context,
          concepts,
          files,
          scope,
          sourceSession,
          origin,
          attributes,
          importance,
          version,
          supersedes,
          latest,
          occurredAt,
          createdAt,
          sourcePins);
    }
  }
}
