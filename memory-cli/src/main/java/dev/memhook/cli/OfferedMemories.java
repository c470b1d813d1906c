package dev.memhook.cli;

import dev.memhook.api.MemoryId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which memories the hook has offered a session, so that each is offered at most once per session,
 * and whether the session's first prompt has been answered: one file per session in {@code
 * <store>/}{@value #DIRECTORY}, named by a hash of the session id (which is the agent's, of any
 * shape), of one id per line and the line {@value #PROMPTED} once the first prompt came. A file not
 * written for {@link #KEPT} is deleted when another session starts ({@link #pruneOthers}), so the
 * directory holds about as many files as sessions started within that time. Not thread-safe;
 * appends across processes.
 */
final class OfferedMemories {
  static final String DIRECTORY = "hook-offered";

  /** The line that says the first prompt came; no memory id can be it ({@code #} is in none). */
  static final String PROMPTED = "#prompted";

  /**
   * How long a session's file is kept after it was last written. Claude Code keeps a session's
   * transcript, and so can resume it, for 30 days after its last activity unless told otherwise
   * (its {@code cleanupPeriodDays}). A session resumed later than this is offered its standing
   * memories again, as a new one would be: a repeat, never a loss.
   */
  static final Duration KEPT = Duration.ofDays(30);

  /** The names this class gives its files; nothing else in the directory is touched. */
  private static final Pattern FILE_NAME = Pattern.compile("[0-9a-f]{32}\\.ids");

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

  /** The session's file, which exists once something was recorded. */
  Path file() {
    return file;
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

  /**
   * Deletes the files of the other sessions last written more than {@link #KEPT} before {@code
   * now}, and returns how many. A file another process deleted first, or that cannot be deleted
   * now, is passed over: a later start tries again.
   *
   * @throws IOException if the directory exists but cannot be listed
   */
  int pruneOthers(Instant now) throws IOException {
    Path directory = file.getParent();
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    FileTime oldest = FileTime.from(now.minus(KEPT));
    int deleted = 0;
    try (Stream<Path> files = Files.list(directory)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (!p.equals(file)
            && FILE_NAME.matcher(p.getFileName().toString()).matches()
            && lastWritten(p).compareTo(oldest) < 0
            && deleted(p)) {
          deleted++;
        }
      }
    }
    return deleted;
  }

  /** When {@code p} was last written; a file gone or unreadable counts as written now. */
  private static FileTime lastWritten(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.from(Instant.MAX);
    }
  }

  private static boolean deleted(Path p) {
    try {
      return Files.deleteIfExists(p);
    } catch (IOException e) {
      return false;
    }
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
