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
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
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
 * either, the events wait in the spool. Files are named by time and a random suffix and appear by
 * an atomic rename, so a reader never sees half of one; a drained file is deleted after {@code
 * observeJson} returned, and capture stores an event delivered twice once (by its id, or its
 * session, type, time and content), so a crash between the two costs nothing.
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

  /**
   * The field of a spooled event that names the scope it is stored in. Capture ignores fields it
   * does not know; an event without it (a spool written by an older version, or by a writer that
   * knows no scope) is stored in the scope of the run that takes it in.
   */
  static final String SCOPE_FIELD = "memhook_scope";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path dir;
  private final PayloadScrub scrub;

  /**
   * The spool of the store in {@code storeDirectory}, whose events are redacted with {@code
   * redaction} before they are written: the redaction the store's capture applies.
   */
  HookSpool(Path storeDirectory, Redaction redaction) {
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
      return all.noneMatch(f -> f.getFileName().toString().endsWith(".json"));
    }
  }

  /**
   * Hands every spooled event to {@code memory}, oldest first, to be stored in the scope it names
   * ({@value #SCOPE_FIELD}), or in {@code scope} if it names none or a malformed one. An event
   * capture rejects as invalid is moved to {@value #REJECTED} and reported through {@code log};
   * draining stops at the first event capture sheds (its queue is full), which stays for the next
   * run.
   *
   * @return how many events were taken in
   */
  int drain(MemoryService memory, Scope scope, HookLog log) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    List<Path> files = new ArrayList<>();
    try (Stream<Path> all = Files.list(dir)) {
      all.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
    }
    int taken = 0;
    for (Path f : files) {
      String json;
      try {
        json = Files.readString(f, StandardCharsets.UTF_8);
      } catch (NoSuchFileException gone) {
        continue; // another run drained it
      }
      try {
        if (memory.capture().observeJson(json, scopeOf(json, scope)) == ObserveResult.SHED) {
          log.warn(
              "capture is full; "
                  + Sizes.count(files.size() - taken, "event waits", "events wait")
                  + " in the spool");
          return taken;
        }
      } catch (IllegalArgumentException e) {
        Path rejected = dir.resolve(REJECTED);
        Files.createDirectories(rejected);
        Files.move(f, rejected.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        log.warn("event " + f.getFileName() + " rejected by capture: " + e.getMessage());
        continue;
      }
      Files.deleteIfExists(f);
      taken++;
    }
    return taken;
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
}
