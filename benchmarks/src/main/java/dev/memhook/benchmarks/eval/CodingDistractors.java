package dev.memhook.benchmarks.eval;

import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Seeded noise for a coding-agent evaluation set: ordinary chat turns of a developer and an
 * assistant and code-ish tool output (identifiers, paths, log lines, commands, short hex hashes,
 * error codes) that answer none of the set's questions. Used by {@link RetrievalEval}'s {@code
 * --distractors N}: each conversation gets N of them, ids {@code distractor-<conv>-<n>}.
 *
 * <p>The vocabulary is this class's own (front-end widgets, a newsletter, a media library, build
 * chores), not the set's projects, and every generated text is checked against the <em>rare
 * tokens</em> of the set's memories ({@link #rareTokens}: tokens with a digit, an underscore, an
 * inner capital, a slash or a dotted file name, plus the 7-character prefix of each hex hash): a
 * text that contains one, case-insensitively, is drawn again. So a distractor can share common
 * words with a relevant memory (that is the point) but never its identifier, path, hash or code.
 *
 * <p>Deterministic: the same data, count and seed give the same memories. Stateless.
 */
public final class CodingDistractors {

  /** The seed when none is given. */
  public static final long DEFAULT_SEED = 42;

  /** Memories per generated session. */
  static final int SESSION_SIZE = 20;

  private static final Instant START = Instant.parse("2026-01-05T08:00:00Z");

  private static final Pattern TOKEN_SPLIT = Pattern.compile("[^\\p{L}\\p{N}_./\\-]+");
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{7,40}");

  private static final String[] NOUNS = {
    "widget", "banner", "thumbnail", "avatar", "playlist", "coupon", "newsletter", "sitemap",
    "glossary", "palette", "tooltip", "carousel", "footnote", "bookmark", "gallery", "caption",
    "sticker", "emoji", "breadcrumb", "sidebar", "lightbox", "podcast", "recipe", "survey"
  };
  private static final String[] VERBS = {
    "render", "resize", "shuffle", "preview", "archive", "translate", "highlight", "collapse",
    "expand", "sort", "tag", "crop", "pin", "mute", "scroll", "share"
  };
  private static final String[] ADJECTIVES = {
    "stale",
    "blurry",
    "oversized",
    "duplicate",
    "misaligned",
    "slow",
    "flaky",
    "noisy",
    "empty",
    "truncated"
  };
  private static final String[] DIRS = {
    "web/src/components",
    "web/src/styles",
    "media/scripts",
    "docs/site",
    "newsletter/templates",
    "tools/lint",
    "web/public/img",
    "analytics/notebooks"
  };
  private static final String[] EXTENSIONS = {".tsx", ".scss", ".py", ".md", ".html", ".svg"};
  private static final String[] TOOL_SPEAKERS = {"bash", "npm", "lint", "browser"};
  private static final String[] CHAT = {
    "Thanks, that looks good to me.",
    "Can we pick this up after lunch?",
    "I will be offline tomorrow morning, dentist appointment.",
    "Let me think about it and get back to you.",
    "Sounds fine, go ahead.",
    "Could you explain that last part again, more slowly?",
    "Nice, the page feels much snappier now.",
    "No rush on this one, it is a nice-to-have.",
    "Let's keep the diff small this time.",
    "Good catch, I had not noticed that.",
    "I am going to grab a coffee, back in ten minutes.",
    "Please summarise what we changed today.",
    "Okay, merge it when the checks are green.",
    "That is enough for today, thanks for the help.",
    "好的，我下午再看一下。",
    "了解です、あとで確認します。",
    "谢谢，这样就清楚了。",
    "今日はここまでにしましょう。"
  };

  private CodingDistractors() {}

  /**
   * The data set in {@code file}, with {@code perConversation} generated memories of {@code seed}
   * appended to each conversation ({@link #addTo}) when {@code perConversation} is above 0: how the
   * harnesses' {@code --data}, {@code --distractors} and {@code --distractor-seed} read a set.
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a line is malformed or {@code perConversation < 0}
   */
  public static EvalData load(Path file, int perConversation, long seed) throws IOException {
    EvalData data = EvalData.load(file);
    return perConversation == 0 ? data : addTo(data, perConversation, seed);
  }

  /**
   * {@code data} with {@code perConversation} generated memories appended for each of its
   * conversations, none containing a rare token of {@code data}'s memories.
   */
  public static EvalData addTo(EvalData data, int perConversation, long seed) {
    if (perConversation < 0) {
      throw new IllegalArgumentException("perConversation must be >= 0");
    }
    Set<String> forbidden = rareTokens(data.memories().stream().map(EvalMemory::text).toList());
    List<EvalMemory> memories = new ArrayList<>(data.memories());
    for (String conv : data.conversations()) {
      memories.addAll(generate(conv, perConversation, seed, forbidden));
    }
    return new EvalData(memories, data.queries());
  }

  /**
   * {@code count} memories for conversation {@code conv}, none containing (case-insensitively) any
   * of {@code forbidden}.
   */
  public static List<EvalMemory> generate(
      String conv, int count, long seed, Collection<String> forbidden) {
    List<String> banned = forbidden.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
    Random random = new Random(seed * 1_000_003L + conv.hashCode());
    List<EvalMemory> out = new ArrayList<>(count);
    Instant at = START;
    for (int n = 0; n < count; n++) {
      at = at.plus(1 + random.nextInt(90), ChronoUnit.MINUTES);
      String text;
      String speaker;
      int attempts = 0;
      do {
        if (++attempts > 1000) {
          throw new IllegalStateException("cannot draw a distractor free of the rare tokens");
        }
        int kind = random.nextInt(10);
        speaker = kind < 3 ? "user" : kind < 6 ? "assistant" : TOOL_SPEAKERS[random.nextInt(4)];
        text = text(kind, random);
      } while (containsAny(text.toLowerCase(Locale.ROOT), banned));
      out.add(
          new EvalMemory(
              conv,
              "distractor-" + conv + "-" + n,
              "distractor-s" + (n / SESSION_SIZE),
              speaker,
              at.toString(),
              text,
              null));
    }
    return out;
  }

  /**
   * The rare tokens of {@code texts}: tokens of 4 characters or more with a digit, an underscore, a
   * lower-case letter followed by a capital, a slash or a dot between letters; and the first 7
   * characters of every lower-case hex token of 7 or more with a digit (a short commit hash).
   */
  public static Set<String> rareTokens(Collection<String> texts) {
    Set<String> out = new TreeSet<>();
    for (String text : texts) {
      for (String raw : TOKEN_SPLIT.split(text)) {
        String token = raw.replaceAll("^[./\\-]+|[./\\-]+$", "");
        if (token.length() < 4) {
          continue;
        }
        boolean rare =
            token.chars().anyMatch(Character::isDigit)
                || token.contains("_")
                || token.contains("/")
                || token.matches(".*\\p{Ll}\\p{Lu}.*")
                || token.matches(".*\\p{L}\\.\\p{L}.*");
        if (rare) {
          out.add(token);
        }
        if (HEX.matcher(token).matches() && token.chars().anyMatch(Character::isDigit)) {
          out.add(token.substring(0, 7));
        }
      }
    }
    return out;
  }

  private static boolean containsAny(String lowerText, List<String> banned) {
    for (String b : banned) {
      if (lowerText.contains(b)) {
        return true;
      }
    }
    return false;
  }

  private static String text(int kind, Random r) {
    String noun = pick(NOUNS, r);
    String other = pick(NOUNS, r);
    String verb = pick(VERBS, r);
    String adjective = pick(ADJECTIVES, r);
    return switch (kind) {
      case 0 -> pick(CHAT, r);
      case 1 ->
          "The "
              + noun
              + " "
              + pick(new String[] {"looks", "is", "feels"}, r)
              + " "
              + adjective
              + " on the "
              + other
              + " page, can you have a look?";
      case 2 ->
          "I prefer to "
              + verb
              + " the "
              + noun
              + " on the client instead of the "
              + other
              + " service.";
      case 3 ->
          "I updated "
              + path(noun, r)
              + " so that "
              + camel(verb, noun)
              + " no longer re-renders the "
              + other
              + ".";
      case 4 ->
          "The "
              + adjective
              + " "
              + noun
              + " came from "
              + snake(verb, other)
              + " being called twice; I moved it into "
              + pascal(noun, "Store")
              + ".";
      case 5 -> pick(CHAT, r);
      case 6 -> "$ " + command(noun, r);
      case 7 -> logLine(noun, other, r);
      case 8 ->
          "commit "
              + hex(r, 7 + r.nextInt(34))
              + " "
              + verb
              + " "
              + noun
              + " "
              + pick(new String[] {"spacing", "colours", "copy", "icons", "alt text"}, r);
      default ->
          "error "
              + pick(new String[] {"UI", "CDN", "IMG", "MAIL"}, r)
              + "-"
              + (100 + r.nextInt(900))
              + ": "
              + noun
              + " "
              + adjective
              + " in "
              + path(other, r);
    };
  }

  private static String command(String noun, Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> "npm run lint -- --fix web/src/components/" + pascal(noun, "View") + ".tsx";
      case 1 -> "python media/scripts/" + noun + "_resize.py --width " + (200 + r.nextInt(800));
      case 2 -> "git log --oneline -n " + (3 + r.nextInt(20)) + " -- " + path(noun, r);
      case 3 -> "npx prettier --write " + path(noun, r);
      default -> "grep -rn \"" + noun + "\" docs/site | head -" + (5 + r.nextInt(20));
    };
  }

  private static String logLine(String noun, String other, Random r) {
    String level = pick(new String[] {"INFO", "WARN", "DEBUG"}, r);
    return String.format(
        Locale.ROOT,
        "%s [%s-worker-%d] %s loaded %d %s items in %d ms",
        level,
        other,
        1 + r.nextInt(8),
        pascal(noun, "Loader"),
        r.nextInt(500),
        noun,
        1 + r.nextInt(900));
  }

  private static String path(String noun, Random r) {
    return pick(DIRS, r) + "/" + noun + pick(EXTENSIONS, r);
  }

  private static String camel(String verb, String noun) {
    return verb + Character.toUpperCase(noun.charAt(0)) + noun.substring(1);
  }

  private static String pascal(String noun, String suffix) {
    return Character.toUpperCase(noun.charAt(0)) + noun.substring(1) + suffix;
  }

  private static String snake(String verb, String noun) {
    return verb + "_" + noun;
  }

  private static String hex(Random r, int length) {
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(Character.forDigit(r.nextInt(16), 16));
    }
    return b.toString();
  }

  private static String pick(String[] values, Random r) {
    return values[r.nextInt(values.length)];
  }
}
