package dev.memhook.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The files by which {@code memhook serve} is found and trusted, in the store directory, each
 * readable and writable by its owner only (0600 where the file system has POSIX permissions):
 *
 * <ul>
 *   <li>{@value #TOKEN_FILE}: the access token, 32 random bytes in hex, made on the first start and
 *       kept, so that an agent's environment variable holding it stays valid across restarts, until
 *       {@code --rotate-token} replaces it;
 *   <li>{@value #RUNNING_FILE}: {@code {"pid":…,"port":…,"token":"…","version":"…"}}, written
 *       atomically once the server listens and deleted when it stops cleanly. A file whose pid is
 *       not a live process, or (where the system shows it) a process started after the file was
 *       written, was left by a server that died; it is ignored and replaced.
 * </ul>
 *
 * Both are read by {@link RemoteCli} before anything else loads, so this class reads and writes
 * them with {@link FlatJson}, and makes its random source only when it makes a token.
 *
 * <p>Not thread-safe; one per command run.
 */
final class ServeFiles {
  static final String TOKEN_FILE = "serve.token";
  static final String RUNNING_FILE = "serve.json";

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  /** The random source of tokens and file names, made on first use: it takes a while to seed. */
  private static final class Random {
    static final SecureRandom SOURCE = new SecureRandom();
  }

  /**
   * What {@value #RUNNING_FILE} says of a server.
   *
   * @param pid its process id
   * @param port the loopback port it listens on
   * @param token the token every request carries
   * @param version the memhook version it runs
   */
  record Running(long pid, int port, String token, String version) {
    Running {
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(version, "version");
    }
  }

  private final Path dir;

  ServeFiles(Path storeDirectory) {
    this.dir = Objects.requireNonNull(storeDirectory, "storeDirectory");
  }

  /**
   * The access token: the kept one, or, on the first start or with {@code rotate}, a new one
   * written in its place.
   */
  String token(boolean rotate) throws IOException {
    Path file = dir.resolve(TOKEN_FILE);
    if (!rotate) {
      try {
        String kept = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (kept.matches("[0-9a-f]{64}")) {
          return kept;
        }
      } catch (NoSuchFileException first) {
        // made below
      }
    }
    byte[] bytes = new byte[32];
    Random.SOURCE.nextBytes(bytes);
    String token = HexFormat.of().formatHex(bytes);
    writeOwnerOnly(file, token + "\n");
    return token;
  }

  /** The server {@value #RUNNING_FILE} names, if the file exists and its process is alive. */
  Optional<Running> running() throws IOException {
    Map<String, Object> n;
    Instant written;
    try {
      Path file = dir.resolve(RUNNING_FILE);
      written = Files.getLastModifiedTime(file).toInstant();
      n = FlatJson.read(Files.readString(file));
    } catch (NoSuchFileException none) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException unreadable) {
      return Optional.empty(); // half a file from a writer that died: no server to trust
    }
    if (!(n.get("pid") instanceof Long pid)
        || !(n.get("port") instanceof Long port)
        || port < 0
        || port > 65535) {
      return Optional.empty();
    }
    Optional<ProcessHandle> process =
        pid == ProcessHandle.current().pid() ? Optional.empty() : ProcessHandle.of(pid);
    // a pid the system has given to another program since the server died is no server: where
    // the system tells, the process must have started before the file was written (a server
    // writes it seconds after its start; the margin covers the start time's coarse clock)
    boolean alive =
        process.isPresent()
            && process.get().isAlive()
            && process
                .get()
                .info()
                .startInstant()
                .map(started -> !started.isAfter(written.plusSeconds(1)))
                .orElse(true);
    if (!alive) {
      return Optional.empty();
    }
    return Optional.of(
        new Running(pid, port.intValue(), text(n.get("token")), text(n.get("version"))));
  }

  private static String text(Object value) {
    return value instanceof String s ? s : "";
  }

  /** Writes {@value #RUNNING_FILE} for {@code running}, atomically, owner-only. */
  void announce(Running running) throws IOException {
    Map<String, Object> n = new LinkedHashMap<>();
    n.put("pid", running.pid());
    n.put("port", running.port());
    n.put("token", running.token());
    n.put("version", running.version());
    writeOwnerOnly(dir.resolve(RUNNING_FILE), FlatJson.write(n) + "\n");
  }

  /** Deletes {@value #RUNNING_FILE} if it names this process: a clean stop. */
  void withdraw() throws IOException {
    Path file = dir.resolve(RUNNING_FILE);
    try {
      Object pid = FlatJson.read(Files.readString(file)).get("pid");
      if (pid instanceof Long p && p == ProcessHandle.current().pid()) {
        Files.deleteIfExists(file);
      }
    } catch (NoSuchFileException gone) {
      // nothing to withdraw
    } catch (IllegalArgumentException notOurs) {
      // not a file this class wrote: left alone
    }
  }

  /**
   * Writes {@code text} to {@code file} through a temporary file created owner-only and moved into
   * place, so the secret is never readable by others, not even for a moment, and a reader never
   * sees half of it.
   */
  private void writeOwnerOnly(Path file, String text) throws IOException {
    Files.createDirectories(dir);
    byte[] suffix = new byte[6];
    Random.SOURCE.nextBytes(suffix);
    Path tmp = dir.resolve(file.getFileName() + "." + HexFormat.of().formatHex(suffix) + ".tmp");
    try {
      Files.createFile(tmp, ownerOnly());
    } catch (UnsupportedOperationException noPosix) {
      Files.createFile(tmp); // a file system without POSIX permissions: its own ACLs apply
    }
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
    return PosixFilePermissions.asFileAttribute(OWNER_ONLY);
  }
}
