package dev.memhook.testkit;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Seeded generator of the argument text a model sends with a tool call, as a chat framework hands
 * it to the tool: JSON text, meant to be one object. About a third are well-formed arguments of
 * Memhook's {@code get_memory} tool ({@code id} with an optional {@code offset}, or {@code ids}
 * with {@code summary}) whose values may be hostile ({@link HostileStrings}, escaped as JSON
 * requires, NUL and lone surrogates included); the rest are wrong in every way a model's text can
 * be: another top-level value, blank text, fields of the wrong type, numbers where strings belong,
 * out-of-range numbers, duplicate and unknown keys, malformed JSON (cut short, single quotes,
 * comments, {@code NaN}, trailing commas, unbalanced brackets, text after the object, raw control
 * characters and raw lone surrogates in strings), 10,000 levels of nesting. Every {@value
 * #BIG_EVERY}th text is big: a string value or a key of {@value #HUGE} characters, one of {@value
 * #OVER_DEFAULT_LIMIT} characters (past Jackson's default string limit), or an array of a hundred
 * thousand elements.
 *
 * <p>The same seed gives the same texts. Not thread-safe.
 */
public final class HostileArguments {

  /** Ten million characters: the length of the big strings generated. */
  public static final int HUGE = 10_000_000;

  /** Twenty-five million characters: longer than the strings Jackson reads by default. */
  public static final int OVER_DEFAULT_LIMIT = 25_000_000;

  /** How often a big text comes: every this many texts. */
  public static final int BIG_EVERY = 250;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final SplittableRandom random;
  private final List<String> ids;
  private int count;
  private String huge;

  /**
   * A generator drawing from {@code random}, which uses {@code ids} as the ids well-formed
   * arguments name (some of them are also hostile strings).
   *
   * @throws IllegalArgumentException if {@code ids} is empty
   */
  public HostileArguments(SplittableRandom random, List<String> ids) {
    this.random = Objects.requireNonNull(random, "random");
    this.ids = List.copyOf(ids);
    if (this.ids.isEmpty()) {
      throw new IllegalArgumentException("ids must not be empty");
    }
  }

  /**
   * Remembers {@code count} facts of hostile text (up to 3,000 characters each, drawn from {@code
   * random}) in the default scope of {@code memory}, for the arguments to name: their ids, in
   * order.
   */
  public static List<String> rememberFacts(
      MemoryService memory, SplittableRandom random, int count) {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String text =
          "Fact " + i + " about the deploy: " + HostileStrings.of(random, random.nextInt(3_000));
      ids.add(memory.remember(MemoryDraft.of(Scope.DEFAULT, text)).id().value());
    }
    return ids;
  }

  /** Every memory {@code memory} holds, by id: compare before and after to see nothing changed. */
  public static Map<String, Memory> stored(MemoryService memory) {
    Map<String, Memory> out = new HashMap<>();
    memory.maintenance().export(m -> out.put(m.id().value(), m));
    return out;
  }

  /**
   * {@code args} for a failure message: its length and its first hundred characters, control
   * characters shown as {@code ?}.
   */
  public static String describe(String args) {
    String head = args.length() <= 100 ? args : args.substring(0, 100) + "…";
    return args.length() + " chars: " + head.replaceAll("\\p{Cntrl}", "?");
  }

  /** The next argument text. */
  public String next() {
    count++;
    if (count % BIG_EVERY == 0) {
      return big((count / BIG_EVERY) % 5);
    }
    return switch (random.nextInt(10)) {
      case 0, 1, 2 -> wellFormed();
      case 3 -> notAnObject();
      case 4 -> wrongTypes();
      case 5 -> malformed();
      case 6 -> deep();
      case 7 -> "{" + member(quote(hostile(30)), value()) + "," + member("\"id\"", id()) + "}";
      case 8 -> "{\"id\":" + id() + ",\"id\":" + id() + "}";
      default -> "{" + member("\"id\"", quote(hostile(random.nextInt(2_000)))) + "}";
    };
  }

  private String big(int kind) {
    if (huge == null) {
      huge = HostileStrings.of(random, HUGE);
    }
    return switch (kind) {
      case 0 -> "{\"id\":" + quote(huge) + "}";
      case 1 -> "{" + quote(huge) + ":1}";
      case 2 -> "{\"id\":\"" + "x".repeat(OVER_DEFAULT_LIMIT) + "\"}";
      case 3 -> "{\"ids\":[" + "\"a\",".repeat(100_000) + "\"b\"]}";
      default -> " ".repeat(HUGE) + "{\"id\":" + id() + "}" + "\n".repeat(HUGE);
    };
  }

  private String wellFormed() {
    return switch (random.nextInt(3)) {
      case 0 -> "{\"id\":" + id() + "}";
      case 1 -> "{\"id\":" + id() + ",\"offset\":" + random.nextInt(5_000) + "}";
      default -> {
        List<String> some = new ArrayList<>();
        int n = 1 + random.nextInt(random.nextBoolean() ? 5 : 60);
        for (int i = 0; i < n; i++) {
          some.add(id());
        }
        yield "{\"ids\":[" + String.join(",", some) + "],\"summary\":" + random.nextBoolean() + "}";
      }
    };
  }

  private String notAnObject() {
    String[] values = {
      "", " \n\t", "null", "[]", "[{\"id\":\"x\"}]", "\"id\"", "42", "true", "-0", "1e308"
    };
    return values[random.nextInt(values.length)];
  }

  private String wrongTypes() {
    String[] shapes = {
      "{\"id\":42}",
      "{\"id\":null}",
      "{\"id\":true}",
      "{\"id\":[\"a\",\"b\"]}",
      "{\"id\":{\"id\":\"x\"}}",
      "{\"ids\":\"mem_1\"}",
      "{\"ids\":[1,2,3]}",
      "{\"ids\":[]}",
      "{\"ids\":null,\"summary\":\"yes\"}",
      "{\"id\":\"x\",\"offset\":\"5\"}",
      "{\"id\":\"x\",\"offset\":-1}",
      "{\"id\":\"x\",\"offset\":1e308}",
      "{\"id\":\"x\",\"offset\":99999999999999999999999999}",
      "{\"id\":\"x\",\"offset\":" + "9".repeat(2_000) + "}",
      "{\"id\":\"x\",\"offset\":1.5}",
      "{}"
    };
    return shapes[random.nextInt(shapes.length)];
  }

  private String malformed() {
    String valid = wellFormed();
    return switch (random.nextInt(11)) {
      case 0 -> valid.substring(0, random.nextInt(valid.length()));
      case 1 -> valid.replace('"', '\'');
      case 2 -> "{/* a comment */" + valid.substring(1);
      case 3 -> "{\"id\":NaN}";
      case 4 -> valid.substring(0, valid.length() - 1) + ",}";
      case 5 -> valid + "}}}";
      case 6 -> valid + " " + (random.nextBoolean() ? "garbage" : valid);
      case 7 -> "{\"id\":\"a" + (char) random.nextInt(0x20) + "b\"}";
      case 8 -> "{\"id\":\"a\ud800b\"}";
      case 9 -> "{\"id\":" + id() + " \"offset\":1}";
      default -> "{\"id\":\"x\\q\"}";
    };
  }

  private String deep() {
    return switch (random.nextInt(3)) {
      case 0 -> HostileStrings.nestedBrackets(10_000);
      case 1 -> "{\"id\":" + HostileStrings.nestedBrackets(10_000) + "}";
      default -> "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
    };
  }

  /** An id as JSON: mostly one of the known ids, now and then a hostile string. */
  private String id() {
    return random.nextInt(4) == 0 ? quote(hostile(60)) : quote(ids.get(random.nextInt(ids.size())));
  }

  private String value() {
    return switch (random.nextInt(5)) {
      case 0 -> quote(hostile(200));
      case 1 -> Long.toString(random.nextLong());
      case 2 -> "[" + id() + ",null,{}]";
      case 3 -> "null";
      default -> "{\"nested\":" + id() + "}";
    };
  }

  private String hostile(int maxLength) {
    return HostileStrings.of(random, random.nextInt(maxLength + 1));
  }

  private static String member(String key, String value) {
    return key + ":" + value;
  }

  /**
   * {@code s} as a JSON string, escaped as JSON requires; a lone surrogate is escaped ({@code
   * \\ud800}) or left raw, at random.
   */
  private String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || (Character.isSurrogate(c) && random.nextBoolean())) {
        out.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
          out.append(HEX[(c >> shift) & 0xf]);
        }
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
