package dev.memhook.core.internal.capture;

import com.google.common.hash.Hashing;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.lucene.MemoryRecordJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link SessionStore} of a service with a journal directory: a {@code sessions}
 * directory beside the journal holding, per session, {@code <name>.json} (the record, rewritten
 * through a temporary file and an atomic rename) and {@code <name>.ids} (observation ids, one a
 * line, appended), where the name is the first 32 hex digits of the SHA-256 of the session id, so
 * any id makes a file name. A line torn by a crash is not a valid id and is skipped on reading, as
 * is a repeated one.
 *
 * <p>Not {@linkplain #shared() shared}: the journal's directory lock makes this service its only
 * writer. Thread-safe (each call works on its own files); a record with an unpaired surrogate is
 * refused, since UTF-8 cannot carry it.
 */
final class FileSessionStore implements SessionStore {

  private static final Logger LOG = LoggerFactory.getLogger(FileSessionStore.class);

  private final Path directory;
  private volatile boolean closed;

  private FileSessionStore(Path directory) {
    this.directory = directory;
  }

  /**
   * The store in {@code directory}, created if missing.
   *
   * @throws MemoryStoreException if the directory cannot be created
   */
  static FileSessionStore open(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "cannot read the captured sessions in " + directory + ": " + e.getMessage(), e);
    }
    return new FileSessionStore(directory);
  }

  @Override
  public boolean shared() {
    return false;
  }

  /**
   * Every readable record; an unreadable file is skipped with a warning (its events rebuild it).
   */
  @Override
  public List<String> loadAll() {
    checkOpen();
    List<String> records = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
      for (Path file : files) {
        try {
          records.add(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          LOG.warn("memhook: skipping unreadable session record {}: {}", file, e.toString());
        }
      }
    } catch (IOException e) {
      throw new MemoryStoreException(
          "cannot read the captured sessions in " + directory + ": " + e.getMessage(), e);
    }
    return records;
  }

  @Override
  public Optional<String> load(String sessionId) {
    checkOpen();
    Path file = file(sessionId, ".json");
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new MemoryStoreException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void save(String sessionId, Scope scope, String record) {
    Objects.requireNonNull(scope, "scope");
    MemoryRecordJson.requireWellFormed(
        Objects.requireNonNull(record, "record"), "the record of session " + sessionId);
    checkOpen();
    Path target = file(sessionId, ".json");
    Path temp = file(sessionId, ".json.tmp");
    try {
      Files.write(temp, record.getBytes(StandardCharsets.UTF_8));
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "cannot write the record of session " + sessionId + ": " + e.getMessage() + "; retry", e);
    }
  }

  @Override
  public void appendObservations(String sessionId, List<MemoryId> ids) {
    List<MemoryId> copy = List.copyOf(ids);
    checkOpen();
    if (copy.isEmpty()) {
      return;
    }
    StringBuilder lines = new StringBuilder();
    copy.forEach(id -> lines.append(id.value()).append('\n'));
    try {
      Files.writeString(
          file(sessionId, ".ids"),
          lines,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "cannot record the observations of session " + sessionId + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<MemoryId> observations(String sessionId) {
    checkOpen();
    Path file = file(sessionId, ".ids");
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new MemoryStoreException("cannot read " + file + ": " + e.getMessage(), e);
    }
    Set<String> seen = new LinkedHashSet<>();
    List<MemoryId> ids = new ArrayList<>();
    for (String line : lines) {
      // a line torn by a crash is not a valid id; a repeated one is a replayed append
      if (MemoryId.isValid(line) && seen.add(line)) {
        ids.add(MemoryId.of(line));
      }
    }
    return ids;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return "FileSessionStore[" + directory + "]";
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the session store is closed");
    }
  }

  /** The file of a session id with {@code suffix}, whatever characters the id holds. */
  private Path file(String sessionId, String suffix) {
    String name =
        Hashing.sha256()
            .hashString(Objects.requireNonNull(sessionId, "sessionId"), StandardCharsets.UTF_8)
            .toString()
            .substring(0, 32);
    return directory.resolve(name + suffix);
  }
}
