package dev.memhook.api;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a memory came from and who said it.
 *
 * <p>Immutable and thread-safe. {@code kind} must not be null; {@code name} is optional (null when
 * nobody in particular is named) and, when present, must not be blank nor longer than {@link
 * MemoryDraft#MAX_ORIGIN_NAME}.
 *
 * @param kind the kind of source
 * @param name who said it (a speaker's name, an agent's name) or the tool that produced it; may be
 *     null
 */
public record Origin(Kind kind, String name) {

  /** The kinds of source a memory can have. */
  public enum Kind {
    /** A person using the host application. */
    USER,
    /** The model or an agent acting for the user. */
    AGENT,
    /** A tool's output. */
    TOOL,
    /** Brought in from elsewhere (a file, another system). */
    IMPORT,
    /** Shared from another scope or team. */
    SHARED
  }

  /** Validates the origin. */
  public Origin {
    Objects.requireNonNull(kind, "kind");
    FieldLimits.optional("origin name", name, MemoryDraft.MAX_ORIGIN_NAME);
  }

  /** The user, unnamed. */
  public static Origin user() {
    return new Origin(Kind.USER, null);
  }

  /** A named person, such as a speaker in a conversation. */
  public static Origin user(String name) {
    return new Origin(Kind.USER, Objects.requireNonNull(name, "name"));
  }

  /** The agent or model, unnamed. */
  public static Origin agent() {
    return new Origin(Kind.AGENT, null);
  }

  /** A tool, by name. */
  public static Origin tool(String toolName) {
    return new Origin(Kind.TOOL, Objects.requireNonNull(toolName, "toolName"));
  }

  /** An import, unnamed. */
  public static Origin imported() {
    return new Origin(Kind.IMPORT, null);
  }

  /** The name, if one was given. */
  public Optional<String> optionalName() {
    return Optional.ofNullable(name);
  }

  @Override
  public String toString() {
    return name == null ? kind.name().toLowerCase() : kind.name().toLowerCase() + ":" + name;
  }
}
