package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thousands of generated event documents for {@code MemoryCapture.observeJson}, well-formed and
 * not: fields missing, of the wrong type, blank, over their limits, given twice or under two names;
 * numbers where strings belong; tool input nested 10,000 levels deep, arrays of a hundred thousand
 * elements; strings of ten million characters, lone surrogates, NUL and control characters, Lucene
 * query syntax and mixed scripts; trailing text, other top-level values. Each call returns an
 * {@link ObserveResult} or throws an {@link IllegalArgumentException} whose short message starts
 * with the field it names, never anything else and never hangs; the pipeline processes what was
 * accepted without a failure, into observations of bounded size; the memories stored before the
 * barrage read back unchanged; and a valid event afterwards is accepted and becomes recallable.
 */
class HostileEventJsonTest {

  private static final int CASES = 2_000;
  private static final Scope BASE = Scope.of("base");
  private static final Scope CAPTURED = Scope.of("captured");

  /**
   * What an error message starts with: the field it names, as given (Claude Code's names too), or
   * the document as a whole.
   */
  private static final Pattern NAMES_THE_FIELD =
      Pattern.compile(
          "^(event JSON|session '|(data\\.)?(hookType|hook_event_name|sessionId|session_id"
              + "|project|cwd|timestamp|eventId|event_id|data|toolName|tool_name|input|tool_input"
              + "|output|tool_response|prompt|error|agentName|agent_name|message|speaker)\\b).*",
          Pattern.DOTALL);

  static LongStream seeds() {
    return Seeds.seeds(1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void hostileEventDocuments_areRejectedNamingTheField_orAccepted_andChangeNothingStored(
      long seed) {
    String replay = Seeds.replay(seed);
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(CaptureOptions.builder().scope(CAPTURED).scopePerProject().build())
            .build()) {
      storeTheBaseline(memory);
      Map<MemoryId, Memory> before = exported(memory);

      Events events = new Events(new HostileText(seed));
      Map<ObserveResult, Integer> results = new EnumMap<>(ObserveResult.class);
      int[] rejected = {0};
      int[] at = {-1};
      assertTimeoutPreemptively(
          Duration.ofMinutes(2), // a hang guard, not a performance target
          () -> {
            for (int c = 0; c < CASES; c++) {
              at[0] = c;
              String json = events.next(c);
              try {
                results.merge(memory.capture().observeJson(json), 1, Integer::sum);
              } catch (IllegalArgumentException e) {
                rejected[0]++;
                String message = String.valueOf(e.getMessage());
                if (!NAMES_THE_FIELD.matcher(message).matches()
                    || message.length() > 600
                    || e.getCause() != null) {
                  fail(
                      "an unclear error for case " + c + " (" + describe(json) + "), " + replay, e);
                }
              } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                throw new AssertionError(
                    "not a clear error for case "
                        + c
                        + " ("
                        + describe(json)
                        + "): "
                        + e
                        + ", "
                        + replay,
                    e);
              }
            }
            flush(memory, replay);
          },
          () -> "hung at case " + at[0] + ", " + replay);
      int accepted = results.getOrDefault(ObserveResult.ACCEPTED, 0);
      assertTrue(
          accepted > CASES / 20 && rejected[0] > CASES / 5,
          "both accepted and rejected events, to prove anything: " + results + ", " + rejected[0]);
      CaptureStats stats = memory.capture().stats();
      assertEquals(0, stats.failed(), "the pipeline failed on an accepted event: " + replay);
      assertEquals(rejected[0], stats.rejected(), replay);

      Map<MemoryId, Memory> after = exported(memory);
      for (Memory m : before.values()) {
        assertEquals(m, after.get(m.id()), "a memory stored before changed: " + replay);
      }
      for (Memory m : after.values()) {
        assertTrue(
            m.content().length() <= MemoryDraft.MAX_CONTENT,
            "an observation of " + m.content().length() + " characters: " + replay);
      }
      for (int i = 0; i < 20; i += 7) {
        String token = "basetok" + i;
        assertTrue(
            memory.recall(RecallQuery.of(BASE, "which fact has " + token)).memories().stream()
                .anyMatch(r -> r.memory().content().contains(token)),
            "no longer recalled: " + token + ", " + replay);
      }

      String fresh =
          "{\"hookType\":\"PostToolUse\",\"sessionId\":\"after\",\"project\":\"after-barrage\","
              + "\"cwd\":\"/w\",\"data\":{\"toolName\":\"Bash\",\"input\":\"grep zqxjvbwk\","
              + "\"output\":\"zqxjvbwk found in pom.xml\"}}";
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observeJson(fresh), replay);
      flush(memory, replay);
      assertTrue(
          memory
              .recall(RecallQuery.of(Scope.of("captured", "after-barrage"), "zqxjvbwk"))
              .memories()
              .stream()
              .anyMatch(r -> r.memory().content().contains("zqxjvbwk")),
          "a valid event after the barrage is not recallable: " + replay);
    }
  }

  /** Twenty memories of the host and the observations of one session of another project. */
  private static void storeTheBaseline(MemoryService memory) {
    for (int i = 0; i < 20; i++) {
      memory.remember(MemoryDraft.of(BASE, "Baseline fact " + i + ": the token is basetok" + i));
    }
    for (int i = 0; i < 5; i++) {
      memory
          .capture()
          .observeJson(
              "{\"hookType\":\"PostToolUse\",\"sessionId\":\"baseline-session\","
                  + "\"project\":\"baseline\",\"cwd\":\"/b\",\"eventId\":\"b"
                  + i
                  + "\",\"data\":{\"toolName\":\"Bash\",\"input\":\"ls "
                  + i
                  + "\",\"output\":\"file"
                  + i
                  + "\"}}");
    }
    flush(memory, "the baseline");
  }

  private static void flush(MemoryService memory, String where) {
    if (!memory.capture().flush(Duration.ofMinutes(1))) {
      fail("capture did not drain in a minute: " + memory.capture().stats() + ", " + where);
    }
  }

  private static Map<MemoryId, Memory> exported(MemoryService memory) {
    Map<MemoryId, Memory> out = new HashMap<>();
    memory.maintenance().export(m -> out.put(m.id(), m));
    return out;
  }

  private static String describe(String json) {
    String head = json.length() <= 120 ? json : json.substring(0, 120) + "…";
    return json.length() + " chars: " + head.replaceAll("\\p{Cntrl}", "?");
  }

  /**
   * Generates event documents as text, so that they can be malformed: each field present or not,
   * well-typed or not, well-encoded or not; a few sessions and event ids recur, so known sessions,
   * redeliveries and session ends happen too.
   */
  private static final class Events {
    private static final String[] TOP_FIELDS = {
      "hookType", "sessionId", "project", "cwd", "timestamp", "eventId", "data"
    };
    private static final String[] DATA_FIELDS = {
      "toolName", "input", "output", "prompt", "error", "agentName", "message", "speaker"
    };
    private static final Map<String, String> ALIASES =
        Map.of(
            "hookType", "hook_event_name",
            "sessionId", "session_id",
            "eventId", "event_id",
            "toolName", "tool_name",
            "input", "tool_input",
            "output", "tool_response",
            "agentName", "agent_name");

    private final HostileText text;
    private final Random r;
    private final String[] huge = new String[2];

    Events(HostileText text) {
      this.text = text;
      this.r = text.random();
    }

    /** Whether the event being generated is well-formed, with hostile text only in its values. */
    private boolean clean;

    /**
     * The {@code c}th document: two in five clean, the rest hostile in shape. Five in every 500 are
     * big, at fixed places so that every run pays for the same few: a string of {@value
     * HostileText#HUGE} characters as a prompt, a session id, a key and an ignored value, and tool
     * input of a hundred thousand elements.
     */
    String next(int c) {
      String head = "{\"hookType\":\"PromptSubmit\",\"project\":\"proj1\",\"cwd\":\"/w\",";
      switch (c % 500) {
        case 100:
          return head
              + "\"sessionId\":\"s1\",\"data\":{\"prompt\":\"p\",\"input\":["
              + "1,".repeat(100_000)
              + "1]}}";
        case 200:
          return head + "\"sessionId\":\"s1\",\"data\":{\"prompt\":" + huge() + "}}";
        case 300:
          return head + "\"sessionId\":" + huge() + ",\"data\":{\"prompt\":\"p\"}}";
        case 400:
          return head + "\"sessionId\":\"s1\"," + huge() + ":1,\"data\":{\"prompt\":\"p\"}}";
        case 450:
          return head + "\"sessionId\":\"s1\",\"x\":" + huge() + ",\"data\":{\"prompt\":\"p\"}}";
        default:
          break;
      }
      clean = r.nextInt(5) < 2;
      if (clean) {
        return object();
      }
      switch (r.nextInt(40)) {
        case 0:
          return "[" + object() + "]";
        case 1:
          return r.nextBoolean() ? "" : " \n\t\u0000";
        case 2:
          return HostileText.nestedBrackets(10_000);
        case 3:
          return "{\"x\":" + "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000) + "}";
        case 4:
          return hostile();
        case 5:
          return object() + (r.nextBoolean() ? " {}" : " " + hostile());
        default:
          return object();
      }
    }

    private String object() {
      StringBuilder out = new StringBuilder("{");
      List<String> fields = new ArrayList<>(List.of(TOP_FIELDS));
      for (String field : fields) {
        if (r.nextInt(8) == 0 && (!clean || field.equals("timestamp") || field.equals("eventId"))) {
          continue; // missing
        }
        member(out, r.nextInt(10) == 0 ? ALIASES.getOrDefault(field, field) : field, top(field));
        if (r.nextInt(60) == 0 && !clean) {
          member(out, field, top(field)); // given twice
        }
      }
      if (r.nextInt(5) == 0) {
        member(out, hostile(), anyValue()); // an unknown field
      }
      if (r.nextInt(20) == 0 && !clean) {
        member(out, "tool_name", string(hostile())); // a top-level alias
      }
      out.append('}');
      return out.toString();
    }

    private String top(String field) {
      if (clean) {
        return switch (field) {
          case "hookType" -> string(cleanType().wireName());
          case "sessionId" -> string("s" + r.nextInt(30));
          case "project" -> string(project());
          case "cwd" -> string("/w/" + r.nextInt(3));
          case "timestamp" -> string("2026-11-30T10:" + (10 + r.nextInt(50)) + ":00Z");
          case "eventId" -> string("e" + r.nextInt(1_000));
          default -> data();
        };
      }
      return switch (field) {
        case "hookType" -> hookType();
        case "sessionId" -> r.nextInt(4) == 0 ? scalar() : string(session());
        case "project" -> r.nextInt(4) == 0 ? scalar() : string(project());
        case "cwd" ->
            r.nextInt(4) == 0
                ? scalar()
                : string(r.nextBoolean() ? "/w" : text.ofLength(r.nextInt(600)));
        case "timestamp" -> timestamp();
        case "eventId" ->
            r.nextInt(4) == 0
                ? scalar()
                : string(r.nextBoolean() ? "e" + r.nextInt(50) : hostile());
        default -> r.nextInt(12) == 0 ? scalar() : data();
      };
    }

    private String data() {
      StringBuilder out = new StringBuilder("{");
      for (String field : DATA_FIELDS) {
        if (r.nextInt(3) == 0 && !clean) {
          continue;
        }
        String value;
        if (field.equals("input") || field.equals("output")) {
          value = toolValue();
        } else if (r.nextInt(8) == 0 && !clean) {
          value = scalar();
        } else {
          value = string(field.endsWith("Name") || field.equals("speaker") ? name() : hostile());
        }
        member(out, r.nextInt(6) == 0 ? ALIASES.getOrDefault(field, field) : field, value);
        if (r.nextInt(80) == 0 && !clean) {
          member(out, field, value); // given twice
        }
      }
      out.append('}');
      return out.toString();
    }

    /** Tool input or output: any JSON value, deep or wide at times. */
    private String toolValue() {
      if (clean && r.nextBoolean()) {
        return r.nextBoolean() ? HostileText.nestedBrackets(r.nextInt(50)) : string(hostile());
      }
      return switch (r.nextInt(12)) {
        case 0 -> HostileText.nestedBrackets(10_000);
        case 1 -> HostileText.nestedBrackets(r.nextInt(70));
        case 2 -> "[" + "1,".repeat(500) + "1]";
        case 3 -> "{\"a\":1,\"a\":2}";
        case 4 -> "{" + memberText(hostile(), anyValue()) + "}";
        case 5 -> "[" + string(hostile()) + "," + scalar() + ",null,{\"k\":[true]}]";
        case 6 -> scalar();
        default -> string(hostile());
      };
    }

    /** A hook type, rarely a session's end: each end consolidates its session, which is slow. */
    private LifecycleEventType cleanType() {
      LifecycleEventType type =
          LifecycleEventType.values()[r.nextInt(LifecycleEventType.values().length)];
      return type == LifecycleEventType.SESSION_END && r.nextInt(5) != 0
          ? LifecycleEventType.POST_TOOL_USE
          : type;
    }

    private String hookType() {
      LifecycleEventType[] types = LifecycleEventType.values();
      String name = types[r.nextInt(types.length)].wireName();
      return switch (r.nextInt(10)) {
        case 0 -> scalar();
        case 1 -> string(hostile());
        case 2 -> string(name.toUpperCase(Locale.ROOT).replace("TOOL", "_TOOL_"));
        case 3 -> string(r.nextBoolean() ? "Stop" : "UserPromptSubmit");
        default -> string(name);
      };
    }

    private String timestamp() {
      return switch (r.nextInt(9)) {
        case 0 -> string("2026-11-30T10:" + (10 + r.nextInt(50)) + ":00Z");
        case 1 -> Long.toString(1_700_000_000_000L + r.nextInt(1_000_000));
        case 2 -> Long.toString(r.nextLong());
        case 3 -> "1" + "0".repeat(r.nextInt(40));
        case 4 -> "-1";
        case 5 -> "1.5e3";
        case 6 -> string(r.nextBoolean() ? "+10000-01-01T00:00:00Z" : "yesterday");
        case 7 -> "null";
        default -> string(hostile());
      };
    }

    /** A few recurring sessions, so that known sessions and session ends happen. */
    private String session() {
      return r.nextInt(5) == 0 ? hostile() : "s" + r.nextInt(30);
    }

    private String project() {
      return r.nextInt(4) == 0 ? hostile() : "proj" + r.nextInt(3);
    }

    private String name() {
      if (clean) {
        return r.nextInt(3) == 0 ? "x" + text.ofLength(r.nextInt(150)) : "Bash";
      }
      return r.nextInt(3) == 0 ? hostile() : "Bash";
    }

    /**
     * A hostile string: mostly short, now and then a few thousand characters (what is accepted is
     * indexed, and indexing is the slow part of the test).
     */
    private String hostile() {
      return text.ofLength(r.nextInt(r.nextInt(20) == 0 ? 4_000 : 120));
    }

    /**
     * A JSON string of {@value HostileText#HUGE} hostile characters, one of two made once per run
     * (making one takes longer than observing it): control characters escaped in the first, not in
     * the second, which is malformed.
     */
    private String huge() {
      if (huge[0] == null) {
        boolean wasClean = clean;
        String chars = text.ofLength(HostileText.HUGE);
        clean = true;
        huge[0] = string(chars);
        clean = false;
        huge[1] = huge[0].replace("\\u0001", "\u0001");
        clean = wasClean;
      }
      return huge[r.nextInt(4) == 0 ? 1 : 0];
    }

    /** A JSON value that is not a string, or a string with odd content. */
    private String scalar() {
      return switch (r.nextInt(10)) {
        case 0 -> "42";
        case 1 -> "-0";
        case 2 -> "1e308";
        case 3 -> "9".repeat(2_000);
        case 4 -> r.nextBoolean() ? "true" : "false";
        case 5 -> "null";
        case 6 -> "[]";
        case 7 -> "{}";
        case 8 -> "NaN";
        default -> "\"\"";
      };
    }

    private String anyValue() {
      return r.nextBoolean() ? scalar() : toolValue();
    }

    private void member(StringBuilder out, String key, String value) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append(memberText(key, value));
    }

    private String memberText(String key, String value) {
      return string(key) + ":" + value;
    }

    /**
     * {@code s} as a JSON string: mostly escaped as JSON requires (a lone surrogate as {@code
     * \\uD800} or raw), sometimes with control characters left raw, which is malformed; in a clean
     * event always escaped, with lone surrogates replaced by U+FFFD.
     */
    private String string(String s) {
      boolean strict = clean || r.nextInt(10) != 0;
      StringBuilder out = new StringBuilder(s.length() + 16).append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (clean && Character.isSurrogate(c)) {
          boolean paired =
              Character.isHighSurrogate(c)
                  && i + 1 < s.length()
                  && Character.isLowSurrogate(s.charAt(i + 1));
          if (paired) {
            out.append(c).append(s.charAt(++i));
          } else {
            out.append('\ufffd');
          }
        } else if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if ((c < 0x20 && strict) || (Character.isSurrogate(c) && r.nextBoolean())) {
          out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      return out.append('"').toString();
    }
  }
}
