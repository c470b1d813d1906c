package dev.memhook.cli;

import dev.memhook.api.MemoryId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Which memories the hook has offered a session, so that each is offered at most once per session:
 * one file of ids per session in {@code <store>/}{@value #DIRECTORY}, named by a hash of the
 * session id (which is the agent's, of any shape). Not thread-safe; appends across processes.
 */
final class OfferedMemories {
  static final String DIRECTORY = "hook-offered";

  private final Path file;

  OfferedMemories(Path storeDirectory, String sessionId) {
    this.file = storeDirectory.resolve(DIRECTORY).resolve(hash(sessionId) + ".ids");
  }

  /** The ids offered to the session so far. */
  Set<MemoryId> offered() throws IOException {
    Set<MemoryId> ids = new HashSet<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (MemoryId.isValid(line.strip())) {
          ids.add(MemoryId.of(line.strip()));
        }
      }
    }
    return ids;
  }

  /** Records {@code ids} as offered. */
  void add(Collection<MemoryId> ids) throws IOException {
    if (ids.isEmpty()) {
      return;
    }
    Files.createDirectories(file.getParent());
    StringBuilder sb = new StringBuilder();
    ids.forEach(id -> sb.append(id.value()).append('\n'));
    Files.writeString(
        file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static String hash(String sessionId) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
