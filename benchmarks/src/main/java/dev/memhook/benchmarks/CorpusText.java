package dev.memhook.benchmarks;

import static dev.memhook.benchmarks.CorpusVocabulary.COMMANDS;
import static dev.memhook.benchmarks.CorpusVocabulary.ERROR_PREFIXES;
import static dev.memhook.benchmarks.CorpusVocabulary.ERROR_WORDS;
import static dev.memhook.benchmarks.CorpusVocabulary.FILLER;
import static dev.memhook.benchmarks.CorpusVocabulary.NOUNS;
import static dev.memhook.benchmarks.CorpusVocabulary.PEOPLE;
import static dev.memhook.benchmarks.CorpusVocabulary.SERVICES;
import static dev.memhook.benchmarks.CorpusVocabulary.VERBS;

import java.util.Locale;
import java.util.Random;

/**
 * The text side of {@link SyntheticCorpus}: a topic's code entities and the filling of templates
 * with them. Every method draws from the caller's {@link Random} in a fixed order, which is part of
 * the corpus's seed contract: reordering the draws changes every generated corpus. Stateless.
 */
final class CorpusText {

  /** The entities of one topic. */
  record Topic(
      String service,
      String ident,
      String ident2,
      String snake,
      String file,
      String error,
      String command,
      String noun,
      String verb) {}

  private CorpusText() {}

  /** Draws the entities of topic {@code t}. */
  static Topic topic(Random r, int t) {
    String noun = pick(r, NOUNS);
    String noun2 = pick(r, NOUNS);
    String verb = pick(r, VERBS);
    String verb2 = pick(r, VERBS);
    String service = pick(r, SERVICES) + (t % 3 == 0 ? "" : "-" + pick(r, NOUNS));
    String ident = verb + capitalize(noun) + capitalize(noun2); // camelCase
    String ident2 = capitalize(noun2) + capitalize(pick(r, NOUNS)) + "Handler"; // PascalCase
    String snake = noun + "_" + pick(r, NOUNS) + "_" + (r.nextBoolean() ? "ms" : "limit");
    String file = "src/main/java/com/acme/" + noun + "/" + ident2 + ".java";
    if (r.nextInt(3) == 0) {
      file = "services/" + service + "/" + noun2 + "/" + snake + ".py";
    }
    String prefix = pick(r, ERROR_PREFIXES);
    String error =
        switch (prefix) {
          case "ERR_" -> "ERR_" + pick(r, ERROR_WORDS);
          case "HTTP " -> "HTTP " + (400 + r.nextInt(104));
          case "ORA-" -> String.format(Locale.ROOT, "ORA-%05d", r.nextInt(99_999));
          case "SQLSTATE " -> "SQLSTATE " + (40000 + r.nextInt(60000));
          default -> prefix + (1000 + r.nextInt(9000));
        };
    String command = String.format(Locale.ROOT, pick(r, COMMANDS), service);
    return new Topic(service, ident, ident2, snake, file, error, command, noun, verb2);
  }

  /**
   * {@code template} with each {@code %X} key replaced by an entity of {@code t} or a drawn word.
   */
  static String fill(String template, Topic t, Random r) {
    StringBuilder sb = new StringBuilder(template.length() + 80);
    for (int i = 0; i < template.length(); i++) {
      char ch = template.charAt(i);
      if (ch != '%' || i + 1 == template.length()) {
        sb.append(ch);
        continue;
      }
      char key = template.charAt(++i);
      sb.append(
          switch (key) {
            case 'P' -> pick(r, PEOPLE);
            case 'S' -> t.service();
            case 'E' -> t.error();
            case 'I' -> r.nextBoolean() ? t.ident() : t.snake();
            case 'J' -> t.ident2();
            case 'F' -> t.file();
            case 'C' -> t.command();
            case 'N' -> t.noun();
            case 'V' -> t.verb();
            case 'W' -> pick(r, FILLER);
            default -> "%" + key;
          });
    }
    return sb.toString();
  }

  /** Zero to eleven filler words and nouns ending in '.', led by a space; empty for zero. */
  static String fillerTail(Random r) {
    int words = r.nextInt(12);
    if (words == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" ");
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(r.nextInt(5) == 0 ? pick(r, NOUNS) : pick(r, FILLER));
    }
    return sb.append('.').toString();
  }

  static String pick(Random r, String[] words) {
    return words[r.nextInt(words.length)];
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
