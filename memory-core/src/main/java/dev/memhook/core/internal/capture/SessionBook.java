package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.Session;
import dev.memhook.api.SessionStatus;
import dev.memhook.core.internal.observe.FieldText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The captured sessions: their records, the ids of their stored observations, and the last turn of
 * each (the context of the next one).
 *
 * <p>Design note. Only the capture worker changes the book (it processes events one at a time, in
 * order), so the mutable parts need no locks; readers on other threads see immutable {@link
 * Session} records through a concurrent map. On disk, in a {@code sessions} directory beside the
 * journal, each session has a small JSON file, rewritten atomically when {@link #persist()} runs
 * after a batch, and an {@code .ids} file its observation ids are appended to. Both may lag the
 * store after a crash; replaying the journal brings them up to date, and counting only observations
 * that were newly stored keeps a replay from counting one twice.
 *
 * <p>Worker-confined, except {@link #get}, {@link #all} and {@link #known}, which are thread-safe.
 */
final class SessionBook {

  private static final Logger LOG = LoggerFactory.getLogger(SessionBook.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The longest first prompt a session record keeps. */
  static final int MAX_FIRST_PROMPT = 500;

  private final Path directory;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Map<String, Instant> lastCapturedAt = new HashMap<>();
  private final Map<String, List<MemoryId>> observations = new HashMap<>();
  private final Map<String, String> lastTurn = new HashMap<>();
  private final Set<String> dirty = new LinkedHashSet<>();

  private SessionBook(Path directory) {
    this.directory = directory;
  }

  /** A book kept in memory only. */
  static SessionBook inMemory() {
    return new SessionBook(null);
  }

  /** The book in {@code directory}, created if missing. */
  static SessionBook open(Path directory) {
    SessionBook book = new SessionBook(directory);
    try {
      Files.createDirectories(directory);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
        for (Path file : files) {
          book.load(file);
        }
      }
    } catch (IOException e) {
      throw new MemoryStoreException(
          "cannot read the captured sessions in " + directory + ": " + e.getMessage(), e);
    }
    return book;
  }

  private void load(Path file) {
    try {
      JsonNode n = JSON.readTree(file.toFile());
      Session s =
          new Session(
              n.get("id").asText(),
              new Scope(n.get("scope").asText()),
              n.get("project").asText(),
              n.get("cwd").asText(),
              Instant.parse(n.get("startedAt").asText()),
              Instant.parse(n.get("lastEventAt").asText()),
              instant(n, "endedAt"),
              SessionStatus.valueOf(n.get("status").asText()),
              n.get("observationCount").asInt(),
              text(n, "firstPrompt"),
              text(n, "summary"));
      sessions.put(s.id(), s);
      Instant captured = instant(n, "lastCapturedAt");
      lastCapturedAt.put(s.id(), captured != null ? captured : s.lastEventAt());
    } catch (IOException | RuntimeException e) {
      // one damaged record must not stop the service from opening: its events rebuild it
      LOG.warn("memhook: skipping unreadable session record {}: {}", file, e.toString());
    }
  }

  private static Instant instant(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : Instant.parse(v.asText());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** Whether a session with this id exists. Thread-safe. */
  boolean known(String sessionId) {
    return sessions.containsKey(sessionId);
  }

  /** The session, if any. Thread-safe. */
  Optional<Session> get(String sessionId) {
    return Optional.ofNullable(sessions.get(sessionId));
  }

  /** Every session, most recent activity first. Thread-safe. */
  List<Session> all() {
    List<Session> out = new ArrayList<>(sessions.values());
    out.sort(Comparator.comparing(Session::lastEventAt).reversed().thenComparing(Session::id));
    return out;
  }

  /**
   * Records that an event of session {@code e} was processed: creates the session if unknown, moves
   * its last event time forward, keeps its first prompt, and reactivates it if it had been
   * abandoned (an abandoned session that speaks again is not over).
   */
  Session touch(AcceptedEvent e, String prompt) {
    String id = e.event().sessionId();
    Instant at = e.event().timestamp();
    Session s = sessions.get(id);
    if (s == null) {
      s =
          new Session(
              id,
              e.scope(),
              orEmpty(e.event().project()),
              orEmpty(e.event().cwd()),
              at,
              at,
              null,
              SessionStatus.ACTIVE,
              0,
              firstPrompt(prompt),
              null);
    } else {
      Instant started = at.isBefore(s.startedAt()) ? at : s.startedAt();
      Instant last = at.isAfter(s.lastEventAt()) ? at : s.lastEventAt();
      SessionStatus status =
          s.status() == SessionStatus.ABANDONED ? SessionStatus.ACTIVE : s.status();
      s =
          new Session(
              id,
              s.scope(),
              s.project().isEmpty() ? orEmpty(e.event().project()) : s.project(),
              s.cwd().isEmpty() ? orEmpty(e.event().cwd()) : s.cwd(),
              started,
              last,
              status == SessionStatus.ACTIVE ? null : s.endedAt(),
              status,
              s.observationCount(),
              s.firstPrompt() != null ? s.firstPrompt() : firstPrompt(prompt),
              s.summary());
    }
    put(s);
    lastCapturedAt.put(id, e.capturedAt());
    return s;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  private static String firstPrompt(String prompt) {
    if (prompt == null || prompt.isBlank()) {
      return null;
    }
    String p = prompt.strip();
    return FieldText.cutEnd(p, MAX_FIRST_PROMPT);
  }

  /** Records a newly stored observation of the session. */
  void observationStored(String sessionId, MemoryId id) {
    Session s = sessions.get(sessionId);
    if (s == null) {
      return;
    }
    put(with(s, s.status(), s.endedAt(), s.observationCount() + 1, s.summary()));
    observations(sessionId).add(id);
    if (directory != null) {
      try {
        Files.writeString(
            directory.resolve(fileName(sessionId) + ".ids"),
            id.value() + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        // the observation is stored; only the session's list of it lags, until the next open
        LOG.warn(
            "memhook: cannot record an observation of session {}: {}", sessionId, e.toString());
      }
    }
  }

  /** The ids of the session's stored observations, oldest first (a live, worker-confined list). */
  List<MemoryId> observations(String sessionId) {
    return observations.computeIfAbsent(sessionId, this::readIds);
  }

  private List<MemoryId> readIds(String sessionId) {
    List<MemoryId> ids = new ArrayList<>();
    if (directory == null) {
      return ids;
    }
    Path file = directory.resolve(fileName(sessionId) + ".ids");
    if (!Files.exists(file)) {
      return ids;
    }
    try {
      Set<String> seen = new LinkedHashSet<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        // a line torn by a crash is not a valid id; a repeated one is a replayed append
        if (MemoryId.isValid(line) && seen.add(line)) {
          ids.add(MemoryId.of(line));
        }
      }
    } catch (IOException e) {
      LOG.warn(
          "memhook: cannot read the observation ids of session {}: {}", sessionId, e.toString());
    }
    return ids;
  }

  /** The session's last turn as context for its next one, or empty. */
  String previousTurn(String sessionId) {
    return lastTurn.getOrDefault(sessionId, "");
  }

  void setPreviousTurn(String sessionId, String turn) {
    lastTurn.put(sessionId, turn);
  }

  /**
   * The session as it will be once ended with {@code status} at {@code at}; not recorded yet, so
   * readers keep seeing it active until {@link #end} records it with its summary.
   */
  Session ending(String sessionId, SessionStatus status, Instant at) {
    Session s = sessions.get(sessionId);
    return with(s, status, at, s.observationCount(), s.summary());
  }

  /** Records the session ended as {@code ended} says, with {@code summary} (null keeps the old). */
  void end(Session ended, String summary) {
    Session s = sessions.get(ended.id());
    put(
        with(
            s,
            ended.status(),
            ended.endedAt(),
            s.observationCount(),
            summary != null ? summary : s.summary()));
  }

  /** Clears the session's first prompt, summary and last turn, which may quote a forgotten text. */
  void forgetQuotes(String sessionId) {
    lastTurn.remove(sessionId);
    Session s = sessions.get(sessionId);
    if (s == null) {
      return;
    }
    put(
        new Session(
            s.id(),
            s.scope(),
            s.project(),
            s.cwd(),
            s.startedAt(),
            s.lastEventAt(),
            s.endedAt(),
            s.status(),
            s.observationCount(),
            null,
            null));
  }

  /** The active sessions with no event captured since {@code cutoff}. */
  List<String> idleSince(Instant cutoff) {
    List<String> idle = new ArrayList<>();
    for (Session s : sessions.values()) {
      Instant last = lastCapturedAt.getOrDefault(s.id(), s.lastEventAt());
      if (s.status() == SessionStatus.ACTIVE && last.isBefore(cutoff)) {
        idle.add(s.id());
      }
    }
    return idle;
  }

  private static Session with(
      Session s, SessionStatus status, Instant endedAt, int count, String summary) {
    return new Session(
        s.id(),
        s.scope(),
        s.project(),
        s.cwd(),
        s.startedAt(),
        s.lastEventAt(),
        endedAt,
        status,
        count,
        s.firstPrompt(),
        summary);
  }

  private void put(Session s) {
    sessions.put(s.id(), s);
    dirty.add(s.id());
  }

  /** Writes the records changed since the last call (atomically, one file each). */
  void persist() {
    if (directory == null) {
      dirty.clear();
      return;
    }
    for (String id : dirty) {
      Session s = sessions.get(id);
      ObjectNode n = JSON.createObjectNode();
      n.put("id", s.id());
      n.put("scope", s.scope().value());
      n.put("project", s.project());
      n.put("cwd", s.cwd());
      n.put("startedAt", s.startedAt().toString());
      n.put("lastEventAt", s.lastEventAt().toString());
      n.put("endedAt", s.endedAt() == null ? null : s.endedAt().toString());
      n.put("status", s.status().name());
      n.put("observationCount", s.observationCount());
      n.put("firstPrompt", s.firstPrompt());
      n.put("summary", s.summary());
      Instant captured = lastCapturedAt.get(id);
      n.put("lastCapturedAt", captured == null ? null : captured.toString());
      Path target = directory.resolve(fileName(id) + ".json");
      Path temp = directory.resolve(fileName(id) + ".json.tmp");
      try {
        Files.write(temp, JSON.writeValueAsBytes(n));
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the record of session " + id, e);
      }
    }
    dirty.clear();
  }

  /** A file name for a session id, whatever characters the id holds. */
  private static String fileName(String sessionId) {
    return Hashing.sha256()
        .hashString(sessionId, StandardCharsets.UTF_8)
        .toString()
        .substring(0, 32);
  }
}
