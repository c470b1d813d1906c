package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryDraft;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Concept tags in the order they were added, lower-case, stripped, without duplicates, each cut to
 * {@link MemoryDraft#MAX_CONCEPT} and at most {@link SyntheticCompressor#MAX_CONCEPTS} of them:
 * what is added first (the tool, languages, frameworks) is what is kept when there are too many.
 *
 * <p>Not thread-safe: one instance per compression.
 */
final class Concepts {

  /** Technology names recognised in prose (prompts and answers). */
  static final Set<String> TECHNOLOGIES =
      Set.of(
          "java",
          "kotlin",
          "scala",
          "python",
          "javascript",
          "typescript",
          "rust",
          "golang",
          "ruby",
          "php",
          "swift",
          "maven",
          "gradle",
          "npm",
          "yarn",
          "pnpm",
          "spring",
          "quarkus",
          "react",
          "vue",
          "angular",
          "django",
          "flask",
          "fastapi",
          "junit",
          "pytest",
          "jest",
          "docker",
          "kubernetes",
          "postgres",
          "postgresql",
          "mysql",
          "sqlite",
          "redis",
          "kafka",
          "git",
          "lucene",
          "jackson",
          "guava",
          "slf4j",
          "graphql",
          "grpc",
          "terraform",
          "aws",
          "gcp",
          "azure",
          "linux",
          "windows",
          "macos",
          "tabs",
          "spaces",
          "json",
          "yaml");

  private final Set<String> tags = new LinkedHashSet<>();

  Concepts add(String tag) {
    if (tag == null || tags.size() >= SyntheticCompressor.MAX_CONCEPTS) {
      return this;
    }
    String t = TextCuts.flat(tag, 4 * MemoryDraft.MAX_CONCEPT).toLowerCase(Locale.ROOT);
    if (!t.isEmpty()) {
      tags.add(TextCuts.head(t, MemoryDraft.MAX_CONCEPT));
    }
    return this;
  }

  Concepts addAll(Collection<String> more) {
    for (String tag : more) {
      if (tags.size() >= SyntheticCompressor.MAX_CONCEPTS) {
        break;
      }
      add(tag);
    }
    return this;
  }

  /**
   * The technology names among the words of the first {@code window} characters of {@code text}.
   */
  Concepts technologies(String text, int window) {
    String head = TextCuts.head(text, window);
    int start = -1;
    for (int i = 0; i <= head.length(); i++) {
      boolean letter = i < head.length() && Character.isLetter(head.charAt(i));
      if (letter && start < 0) {
        start = i;
      } else if (!letter && start >= 0) {
        if (i - start <= 12) {
          String word = head.substring(start, i).toLowerCase(Locale.ROOT);
          if (TECHNOLOGIES.contains(word)) {
            add(word);
          }
        }
        start = -1;
      }
    }
    return this;
  }

  List<String> list() {
    return new ArrayList<>(tags);
  }
}
