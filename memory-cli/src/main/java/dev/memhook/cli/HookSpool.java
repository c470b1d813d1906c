package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.core.Redaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The hook's inbox: one file per captured event in {@code <store>/}{@value #DIRECTORY}, written
 * without opening the store, redacted as capture redacts what it stores, and taken into the store,
 * oldest first, by whichever hook run next opens it for writing.
 *
 * <h2>Design note</h2>
 *
 * A tool event needs no answer, and opening the store costs a JVM run most of its time (the index,
 * the journal, the embedding model). So {@code memhook hook} spools every event and opens the store
 * only for the events that answer or that end a turn; a store held by another process is no failure
 * either, the events wait in the spool. This class names its files by time and a random suffix and
 * they appear by an atomic rename, so a reader never sees half of one; the hook script cannot
 * afford the processes a time and a rename cost, so its files are created empty and filled by
 * openssl, and a drain leaves one it cannot read yet for {@link #IN_FLIGHT}. Files are taken in the
 * order they were last written, which is the order of the events. A drain claims a file by renaming
 * it before reading it, so two processes draining at once (the server and a {@code memhook hook}
 * run) never both take it, and deletes it after {@code observeJson} returned; capture stores an
 * event delivered twice once (by its id, or its session, type, time and content), so a crash
 * between the two costs nothing.
 *
 * <p>The no-JVM hook script ({@code memhook-hook}) spools into the same directory while the server
 * is down, encrypted instead of redacted ({@link SpoolCipher} says why), and the drain decrypts and
 * redacts those events in memory.
 *
 * <p>A tool event can carry credentials (a command's environment, a tool's password argument,
 * output that echoes a key), and a spooled event stays on the disk until a later event drains it,
 * for ever if the agent's session dies first. So every event is redacted before its first byte is
 * written ({@link PayloadScrub}), with the store's own rules; capture redacts it again when it is
 * drained, which changes nothing, since redaction is idempotent.
 *
 * <p>Not thread-safe within one process; safe across processes.
 */
final class HookSpool {
  static final String DIRECTORY = "hook-spool";
  static final String REJECTED = "rejected";

  /** The suffix of an event the hook script spooled, encrypted ({@link SpoolCipher}). */
  static final String ENCRYPTED = ".json.enc";

  /**
   * How long a spooled file that cannot be read yet is left alone: the hook script creates its file
   * before openssl has written it, so a drain can meet it empty or half written. Past this it is no
   * longer being written (a script killed half way), and is rejected.
   */
  static final Duration IN_FLIGHT = Duration.ofMinutes(1);

  /** The suffix of a file a drain has claimed. */
  static final String CLAIMED = ".taken";

  /**
   * How long a claimed file may stay claimed before a later drain takes it again: far longer than
   * capture takes to accept one event, so only a drain that died leaves one that old.
   */
  static final Duration ABANDONED = Duration.ofMinutes(10);

  /** Where the hook script counts the events it dropped, one line each, in the store directory. */
  static final String DROPPED = "hook-dropped";

  /**
   * The field of a spooled event that names the scope it is stored in. Capture ignores fields it
   * does not know; an event without it (a spool written by an older version, or by a writer that
   * knows no scope) is stored in the scope of the run that takes it in. The hook script, which
   * cannot edit the JSON it encrypts, puts the scope on a first line {@value #SCOPE_LINE}{@code
   * SCOPE} before the payload instead; the drain moves it into this field.
   */
  static final String SCOPE_FIELD = "memhook_scope";

  /** How the first line of an encrypted spool file names its scope. */
  static final String SCOPE_LINE = "scope=";

  /**
   * How a line after the scope names the agent that sent the payload ({@link HookOrigin}), whose
   * translator the drain applies ({@link AgentPayloads}); without it, Claude Code's format.
   */
  static final String AGENT_LINE = "agent=";

  /** How a line after the scope names the agent's event, for payloads that do not name it. */
  static final String EVENT_LINE = "event=";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path store;
  private final Path dir;
  private final PayloadScrub scrub;

  /**
   * The spool of the store in {@code storeDirectory}, whose events are redacted with {@code
   * redaction} before they are written: the redaction the store's capture applies.
   */
  HookSpool(Path storeDirectory, Redaction redaction) {
    this.store = storeDirectory;
    this.dir = storeDirectory.resolve(DIRECTORY);
    this.scrub = new PayloadScrub(redaction);
  }

  /**
   * Writes {@code event} to the spool, redacted ({@link PayloadScrub}) before any byte of it
   * reaches the disk, with {@code scope} in its {@value #SCOPE_FIELD} field: the scope it is to be
   * stored in, whichever run takes it in.
   *
   * @throws IllegalArgumentException if the redaction fails closed; nothing is written
   */
  void add(ObjectNode event, Scope scope) throws IOException {
    ObjectNode scrubbed = scrub.scrub(event);
    scrubbed.put(SCOPE_FIELD, scope.value());
    byte[] json = JsonRecords.MAPPER.writeValueAsBytes(scrubbed);
    Files.createDirectories(dir);
    byte[] suffix = new byte[6];
    RANDOM.nextBytes(suffix);
    Instant now = Instant.now();
    String name =
        String.format(
            "%012d%09d-%s.json",
            now.getEpochSecond(), now.getNano(), HexFormat.of().formatHex(suffix));
    Path tmp = dir.resolve(name + ".partial");
    Files.write(tmp, json);
    try {
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(name));
    }
  }

  /** Whether no event waits in the spool; a cheap check, made before each served hook event. */
  boolean isEmpty() throws IOException {
    if (!Files.isDirectory(dir)) {
      return true;
    }
    try (Stream<Path> all = Files.list(dir)) {
      return all.noneMatch(f -> spooled(f.getFileName().toString()));
    }
  }

  /**
   * Hands every spooled event to {@code memory}, oldest first, each to be stored in the scope it
   * names ({@value #SCOPE_FIELD}), or in {@code scope} if it names none or a malformed one: the
   * redacted {@code .json} files {@link #add} writes, and the {@code .json.enc} files the no-JVM
   * hook ({@code memhook-hook}) writes, which are decrypted ({@link SpoolCipher}), completed
   * ({@link HookPayload#prepare}, as of when they were written) and redacted ({@link PayloadScrub})
   * in memory before capture sees them. Each file is claimed by an atomic rename before it is read,
   * so of several processes draining at once exactly one takes it; it is deleted once {@code
   * observeJson} returned. An event capture rejects as invalid, or a file that does not decrypt or
   * parse and was last written more than {@link #IN_FLIGHT} ago (a younger one may still be being
   * written, and stays), is moved to {@value #REJECTED} (still encrypted, if it was) and reported
   * through {@code log}; draining stops at the first event capture sheds (its queue is full), which
   * stays for the next run. Events the hook script had to drop ({@value #DROPPED}) are reported and
   * the count reset.
   *
   * <p>A script's file names the agent that sent its payload, and the event, on lines after the
   * scope's ({@value #AGENT_LINE}, {@value #EVENT_LINE}); the payload is translated from that
   * agent's format ({@link AgentPayloads}) before it is completed.
   *
   * @return how many events were taken in
   */
  int drain(MemoryService memory, Scope scope, HookLog log) throws IOException {
    reportDropped(log);
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    releaseAbandoned();
    List<Waiting> files = new ArrayList<>();
    try (Stream<Path> all = Files.list(dir)) {
      for (Path f : (Iterable<Path>) all::iterator) {
        if (spooled(f.getFileName().toString())) {
          try {
            files.add(new Waiting(f, Files.getLastModifiedTime(f).toInstant()));
          } catch (NoSuchFileException gone) {
            // another run took it
          }
        }
      }
    }
    files.sort(Comparator.comparing(Waiting::modified).thenComparing(Waiting::file));
    int taken = 0;
    for (Waiting waiting : files) {
      Path f = waiting.file();
      Path claimed = f.resolveSibling(f.getFileName() + CLAIMED);
      try {
        Files.move(f, claimed, StandardCopyOption.ATOMIC_MOVE);
      } catch (NoSuchFileException gone) {
        continue; // another run took it
      }
      Files.setLastModifiedTime(claimed, FileTime.from(Instant.now())); // when it was claimed
      String json;
      try {
        json = read(f.getFileName().toString(), claimed, waiting.modified());
      } catch (IllegalArgumentException | IOException e) {
        if (f.getFileName().toString().endsWith(ENCRYPTED)
            && waiting.modified().isAfter(Instant.now().minus(IN_FLIGHT))) {
          // the hook script may still be writing it: back, as it was, for a later drain
          Files.move(claimed, f, StandardCopyOption.ATOMIC_MOVE);
          Files.setLastModifiedTime(f, FileTime.from(waiting.modified()));
          continue;
        }
        reject(claimed, f, log, e.getMessage());
        continue;
      }
      ObserveResult result;
      try {
        result =
            json == null
                ? ObserveResult.DUPLICATE
                : memory.capture().observeJson(json, scopeOf(json, scope));
      } catch (IllegalArgumentException e) {
        reject(claimed, f, log, "rejected by capture: " + e.getMessage());
        continue;
      }
      if (result == ObserveResult.SHED) {
        Files.move(claimed, f, StandardCopyOption.ATOMIC_MOVE); // back, for the next run
        log.warn(
            "capture is full; "
                + Sizes.count(files.size() - taken, "event waits", "events wait")
                + " in the spool");
        return taken;
      }
      Files.deleteIfExists(claimed);
      taken++;
    }
    return taken;
  }

  /**
   * Puts back the files a drain claimed more than {@link #ABANDONED} ago: its process died before
   * it finished with them. Capture stores an event delivered twice once, so one it did take in
   * costs nothing.
   */
  private void releaseAbandoned() throws IOException {
    Instant before = Instant.now().minus(ABANDONED);
    List<Path> claimed;
    try (Stream<Path> all = Files.list(dir)) {
      claimed = all.filter(f -> f.getFileName().toString().endsWith(CLAIMED)).toList();
    }
    for (Path f : claimed) {
      try {
        if (Files.getLastModifiedTime(f).toInstant().isBefore(before)) {
          String name = f.getFileName().toString();
          Files.move(
              f,
              f.resolveSibling(name.substring(0, name.length() - CLAIMED.length())),
              StandardCopyOption.ATOMIC_MOVE);
        }
      } catch (NoSuchFileException gone) {
        // its drain finished meanwhile
      }
    }
  }

  private static boolean spooled(String name) {
    return name.endsWith(".json") || name.endsWith(ENCRYPTED);
  }

  /** A file in the spool and when it was last written. */
  private record Waiting(Path file, Instant modified) {}

  /**
   * The event JSON in the claimed file {@code claimed}, first named {@code name}: as written for a
   * {@code .json} file; decrypted, completed and redacted for a {@code .json.enc} file, or null
   * when it holds an event that cannot be captured (a {@code Stop} without assistant text).
   */
  private String read(String name, Path claimed, Instant modified) throws IOException {
    if (!name.endsWith(ENCRYPTED)) {
      return Files.readString(claimed, StandardCharsets.UTF_8);
    }
    byte[] plain = SpoolCipher.open(Files.readAllBytes(claimed), SpoolCipher.passphrase(store));
    String text = new String(plain, StandardCharsets.UTF_8);
    Arrays.fill(plain, (byte) 0);
    String scopeName = null;
    String agent = null;
    String eventName = null;
    // the header lines the script writes before the payload, which starts with a brace
    while (text.startsWith(SCOPE_LINE)
        || text.startsWith(AGENT_LINE)
        || text.startsWith(EVENT_LINE)) {
      int end = text.indexOf('\n');
      String line = text.substring(0, end < 0 ? text.length() : end);
      text = end < 0 ? "" : text.substring(end + 1);
      String value = line.substring(line.indexOf('=') + 1);
      if (line.startsWith(SCOPE_LINE)) {
        scopeName = value;
      } else if (line.startsWith(AGENT_LINE)) {
        agent = value;
      } else {
        eventName = value;
      }
    }
    JsonNode payload =
        AgentPayloads.toClaude(HookOrigin.of(agent, eventName), JsonRecords.MAPPER.readTree(text));
    HookPayload.Prepared prepared = HookPayload.prepare(payload, spooledAt(name, modified));
    if (prepared.event().isEmpty()) {
      return null;
    }
    ObjectNode event = scrub.scrub(prepared.event().get());
    if (scopeName != null) {
      event.put(SCOPE_FIELD, scopeName);
    }
    return JsonRecords.MAPPER.writeValueAsString(event);
  }

  /** The scope {@code json} names, else {@code otherwise}; invalid JSON is left to capture. */
  private static Scope scopeOf(String json, Scope otherwise) {
    try {
      JsonNode named = JsonRecords.MAPPER.readTree(json).get(SCOPE_FIELD);
      if (named != null && named.isTextual()) {
        return new Scope(named.textValue());
      }
    } catch (IOException | IllegalArgumentException | NullPointerException malformed) {
      // capture rejects what is no JSON object, naming why; a malformed scope falls back
    }
    return otherwise;
  }

  /**
   * When a file was spooled: the time its name starts with ({@code <12-digit seconds><9-digit
   * nanos>-…}, as {@link #add} names it), else {@code modified}, when it was written (the hook
   * script names its files by process id, since asking the time costs it a process).
   */
  static Instant spooledAt(String name, Instant modified) {
    if (name.length() > 21 && name.substring(0, 21).chars().allMatch(Character::isDigit)) {
      return Instant.ofEpochSecond(
          Long.parseLong(name.substring(0, 12)), Long.parseLong(name.substring(12, 21)));
    }
    return modified;
  }

  private void reject(Path claimed, Path original, HookLog log, String why) throws IOException {
    Path rejected = dir.resolve(REJECTED);
    Files.createDirectories(rejected);
    Files.move(
        claimed, rejected.resolve(original.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    log.warn("event " + original.getFileName() + " " + why);
  }

  /**
   * Reports the events the hook script dropped rather than write them in clear, then forgets them.
   */
  private void reportDropped(HookLog log) throws IOException {
    Path dropped = store.resolve(DROPPED);
    List<String> lines;
    try {
      lines = Files.readAllLines(dropped, StandardCharsets.UTF_8);
    } catch (NoSuchFileException none) {
      return;
    }
    Files.deleteIfExists(dropped);
    if (!lines.isEmpty()) {
      log.warn(
          "memhook-hook dropped "
              + Sizes.count(lines.size(), "event", "events")
              + " rather than write it unencrypted; the last: "
              + lines.get(lines.size() - 1));
    }
  }
}
