package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every length and count limit a {@link MemoryDraft} states: a draft at the limit is accepted, one
 * past it is rejected with an {@link IllegalArgumentException} that names the field, the limit and
 * the size it got, and no such message repeats anything the draft holds. Every string of every
 * draft here carries the same secret, so a message that echoes any field shows it.
 */
class MemoryDraftLimitsTest {

  private static final String SECRET = "hunter2";

  /**
   * One limit: the field as the message names it, the limit, whether it counts characters or
   * entries, and a draft whose field has the given size.
   */
  record Limit(String field, int max, boolean counted, IntFunction<MemoryDraft> draftOfSize) {
    String message(int got) {
      return counted
          ? field + " must hold at most " + max + " entries, got " + got
          : field + " must be at most " + max + " characters, got " + got;
    }

    @Override
    public String toString() {
      return field;
    }
  }

  static Stream<Limit> limits() {
    return Stream.of(
        chars("content", MemoryDraft.MAX_CONTENT, n -> builder(secretText(n)).build()),
        chars("title", MemoryDraft.MAX_TITLE, n -> builder().title(secretText(n)).build()),
        chars("summary", MemoryDraft.MAX_SUMMARY, n -> builder().summary(secretText(n)).build()),
        // a draft may carry this much context; the memory keeps its end
        chars("context", MemoryDraft.MAX_CONTENT, n -> builder().context(secretText(n)).build()),
        chars(
            "sourceSession",
            MemoryDraft.MAX_SESSION,
            n -> builder().sourceSession(secretText(n)).build()),
        counted(
            "concepts",
            MemoryDraft.MAX_CONCEPTS,
            n -> builder().concepts(secretEntries(n)).build()),
        chars(
            "concepts[1]",
            MemoryDraft.MAX_CONCEPT,
            n -> builder().concepts(List.of(SECRET, secretText(n))).build()),
        counted("files", MemoryDraft.MAX_FILES, n -> builder().files(secretEntries(n)).build()),
        chars(
            "files[1]",
            MemoryDraft.MAX_FILE,
            n -> builder().files(List.of(SECRET, secretText(n))).build()),
        chars(
            "origin name",
            MemoryDraft.MAX_ORIGIN_NAME,
            n -> builder().origin(Origin.user(secretText(n))).build()),
        counted(
            "attributes",
            MemoryDraft.MAX_ATTRIBUTES,
            n -> builder().attributes(secretAttributes(n - 1, SECRET, SECRET)).build()),
        chars(
            "attributes[1] key",
            MemoryDraft.MAX_ATTRIBUTE_KEY,
            n -> builder().attributes(secretAttributes(1, secretText(n), SECRET)).build()),
        // the key is a secret too: it must not name the entry whose value is too long
        chars(
            "attributes[1] value",
            MemoryDraft.MAX_ATTRIBUTE_VALUE,
            n ->
                builder()
                    .attributes(secretAttributes(1, "password=" + SECRET, secretText(n)))
                    .build()),
        counted(
            "sourcePins",
            MemoryDraft.MAX_SOURCE_PINS,
            n -> builder().sourcePins(secretPins(n)).build()),
        chars(
            "source pin path",
            MemoryDraft.MAX_PIN_PATH,
            n -> builder().sourcePins(List.of(new SourcePin(secretText(n), SECRET))).build()),
        chars(
            "source pin digest",
            MemoryDraft.MAX_PIN_DIGEST,
            n -> builder().sourcePins(List.of(new SourcePin(SECRET, secretText(n)))).build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void aFieldAtItsLimit_isAccepted(Limit limit) {
    limit.draftOfSize().apply(limit.max());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void aFieldPastItsLimit_isRejected_namingTheFieldAndTheLimit(Limit limit) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> limit.draftOfSize().apply(limit.max() + 1));
    assertEquals(limit.message(limit.max() + 1), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void noMessageOfAnOverLimitDraft_containsTheDraftsText(Limit limit) {
    for (int size : new int[] {limit.max() + 1, 2 * limit.max() + 7}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> limit.draftOfSize().apply(size));
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
      assertFalse(e.getMessage().contains("password"), e.getMessage());
    }
  }

  private static Limit chars(String field, int max, IntFunction<MemoryDraft> draftOfSize) {
    return new Limit(field, max, false, draftOfSize);
  }

  private static Limit counted(String field, int max, IntFunction<MemoryDraft> draftOfSize) {
    return new Limit(field, max, true, draftOfSize);
  }

  /** A builder whose content holds the secret. */
  private static MemoryDraft.Builder builder() {
    return builder("the content says password=" + SECRET);
  }

  private static MemoryDraft.Builder builder(String content) {
    return MemoryDraft.builder(Scope.DEFAULT, content);
  }

  /** Exactly {@code length} characters of {@code password=hunter2 } repeated. */
  private static String secretText(int length) {
    String unit = "password=" + SECRET + " ";
    StringBuilder sb = new StringBuilder(length + unit.length());
    while (sb.length() < length) {
      sb.append(unit);
    }
    sb.setLength(length);
    return sb.toString();
  }

  private static List<String> secretEntries(int count) {
    List<String> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      entries.add(SECRET + "-" + i);
    }
    return entries;
  }

  /** {@code count} short entries, then one with {@code key} and {@code value}, in that order. */
  private static Map<String, String> secretAttributes(int count, String key, String value) {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      attributes.put(SECRET + "-" + i, SECRET);
    }
    attributes.put(key, value);
    return attributes;
  }

  private static List<SourcePin> secretPins(int count) {
    List<SourcePin> pins = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pins.add(new SourcePin(SECRET + "/" + i, "sha256:" + SECRET));
    }
    return pins;
  }
}
