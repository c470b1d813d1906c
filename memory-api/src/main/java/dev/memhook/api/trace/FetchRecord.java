package dev.memhook.api.trace;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One call the model made to the real {@code get_memory} tool: what it sent, what the tool made of
 * it, and what each id came to. The model itself sees every id that was not found as {@code
 * not_found} (so it cannot probe other scopes); this record tells the host which it was.
 *
 * <p>Immutable and thread-safe. The argument maps hold strings (cut to {@value #MAX_ECHOED_CHARS}
 * characters, marked with a trailing {@code …}), numbers, booleans, null, and unmodifiable lists
 * and maps of those, at most {@value #MAX_ECHOED_ENTRIES} entries each: a record keeps what the
 * model asked for, not a copy of whatever it pasted.
 *
 * @param hookId the hook whose tool was called
 * @param toolCallId the model's tool-call id
 * @param at when the call was answered
 * @param arguments the arguments as the model sent them
 * @param effectiveArguments the arguments the tool acted on, after the normalisation rules of the
 *     tool (a single id string given as {@code ids} read as a one-element list, repeated ids
 *     answered once); empty when the arguments were refused
 * @param ids what each requested id came to, in the order answered
 * @param representation how the found memories were shown
 * @param errorCode the structured error the model got ({@code invalid_arguments}, {@code
 *     too_many_ids}, {@code not_found}, {@code over_budget}, {@code store_unavailable}), or null
 *     when the call was answered
 */
public record FetchRecord(
    String hookId,
    String toolCallId,
    Instant at,
    Map<String, Object> arguments,
    Map<String, Object> effectiveArguments,
    List<FetchedId> ids,
    InjectionReceipt.Representation representation,
    String errorCode) {

  /** The longest string an argument map keeps. */
  public static final int MAX_ECHOED_CHARS = 200;

  /** The most entries a list or map in the argument maps keeps. */
  public static final int MAX_ECHOED_ENTRIES = 100;

  /** What one requested id came to. */
  public enum Outcome {
    /** Found and returned. */
    FOUND,
    /** No memory has this id, in any scope. */
    UNKNOWN,
    /** The memory was forgotten (its audit record is in one of the hook's scopes). */
    FORGOTTEN,
    /** The memory exists in a scope the hook does not read. */
    OUT_OF_SCOPE
  }

  /**
   * One requested id and what it came to.
   *
   * @param id the id as requested (cut like any echoed string)
   * @param outcome what it came to
   */
  public record FetchedId(String id, Outcome outcome) {
    /** Validates the entry. */
    public FetchedId {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /** Validates and copies; the maps must already be unmodifiable echoes (see the class doc). */
  public FetchRecord {
    Objects.requireNonNull(hookId, "hookId");
    Objects.requireNonNull(toolCallId, "toolCallId");
    Objects.requireNonNull(at, "at");
    arguments = Map.copyOf(Objects.requireNonNull(arguments, "arguments"));
    effectiveArguments =
        Map.copyOf(Objects.requireNonNull(effectiveArguments, "effectiveArguments"));
    ids = List.copyOf(Objects.requireNonNull(ids, "ids"));
    Objects.requireNonNull(representation, "representation");
  }
}
