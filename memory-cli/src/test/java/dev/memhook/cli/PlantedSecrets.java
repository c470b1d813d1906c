package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.memhook.api.Memory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Credentials the hook tests plant in every field of a payload, and the checks that none of them
 * reached a place: a text, or any byte of any file under a directory.
 */
final class PlantedSecrets {
  static final String AWS_KEY_ID = "AKIAZ3MHQ7RT2XK5PLNV";
  static final String AWS_SECRET = "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";
  static final String PASSWORD = "hunter2-Sup3r-s3cret";
  static final String GITHUB_TOKEN = "ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM";

  /** Each secret, and a piece of each long enough to be found only if it leaked. */
  static final List<String> ALL =
      List.of(
          AWS_KEY_ID,
          AWS_SECRET,
          PASSWORD,
          GITHUB_TOKEN,
          "Z3MHQ7RT2XK5",
          "EMIK7MDENGbPxR",
          "Sup3r-s3cret",
          "R7tYq2LmX9vB4nK8");

  private PlantedSecrets() {}

  /** Fails, naming {@code where} and the secret, if {@code text} holds any of them. */
  static void assertNoneIn(String where, String text) {
    for (String secret : ALL) {
      assertFalse(text.contains(secret), where + " holds " + secret + ": " + text);
    }
  }

  /** Every byte of every file under {@code dir}, searched for every secret. */
  static void assertNoneUnder(Path dir, String when) throws IOException {
    List<Path> files;
    try (Stream<Path> all = Files.walk(dir)) {
      files = all.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      for (String secret : ALL) {
        assertFalse(bytes.contains(secret), when + ": " + dir.relativize(f) + " holds " + secret);
      }
    }
  }

  /** The text of a memory a test searches for secrets: title, summary, content and context. */
  static String memoryText(Memory m) {
    return String.join(" | ", m.title(), m.summary(), m.content(), String.valueOf(m.context()));
  }
}
