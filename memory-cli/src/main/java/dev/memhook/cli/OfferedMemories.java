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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which memories the hook has offered a session, so that each is offered at most once per session,
 * and whether the session's first prompt has been answered: one file per session in {@code
 * <store>/}{@value #DIRECTORY}, named by a hash of the session id (which is the agent's, of any
 * shape), of one id per line and the line {@value #PROMPTED} once the first prompt came. Not
 * thread-safe; appends across processes.
 */
final class OfferedMemories {
  static final String DIRECTORY = "hook-offered";

  /** The line that says the first prompt came; no memory id can be it ({@code #} is in none). */
  static final String PROMPTED = "#prompted";

  /**
   * What a session's file says.
   *
   * @param ids every memory offered to the session
   * @param beforePrompt the memories offered before its first prompt, in the order offered: its
   *     standing memories (of a file written before the marker existed: every id)
   * @param prompted whether the session's first prompt has come
   */
  record Offered(Set<MemoryId> ids, List<MemoryId> beforePrompt, boolean prompted) {
    Offered {
      ids = Set.copyOf(ids);
      beforePrompt = List.copyOf(beforePrompt);
    }
  }

  private final Path file;

  OfferedMemories(Path storeDirectory, String sessionId) {
    this.file = storeDirectory.resolve(DIRECTORY).resolve(hash(sessionId) + ".ids");
  }

  /** The ids offered to the session so far. */
  Set<MemoryId> offered() throws IOException {
    return read().ids();
  }

  /** What the session was offered so far, and whether its first prompt came. */
  Offered read() throws IOException {
    Set<MemoryId> ids = new HashSet<>();
    Set<MemoryId> beforePrompt = new LinkedHashSet<>();
    boolean prompted = false;
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String entry = line.strip();
        if (entry.equals(PROMPTED)) {
          prompted = true;
        } else if (MemoryId.isValid(entry)) {
          ids.add(MemoryId.of(entry));
          if (!prompted) {
            beforePrompt.add(MemoryId.of(entry));
          }
        }
      }
    }
    return new Offered(ids, List.copyOf(beforePrompt), prompted);
  }

  /** Records that the session's first prompt came; what is offered later is not standing. */
  void markPrompted() throws IOException {
    append(PROMPTED + "\n");
  }

  /** Records {@code ids} as offered. */
  void add(Collection<MemoryId> ids) throws IOException {
    if (ids.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    ids.forEach(id -> sb.append(id.value()).append('\n'));
    append(sb);
  }

  private void append(CharSequence lines) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
