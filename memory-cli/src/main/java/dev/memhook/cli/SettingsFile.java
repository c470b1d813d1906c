package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A coding agent's JSON settings file, changed in place the way {@code memhook install} must: every
 * key and value the change does not touch is kept (in its order), a file the change leaves equal is
 * not written at all, the old file is first copied to a timestamped backup beside it, and the new
 * one replaces it by an atomic rename, with the old file's permissions, so the agent never reads
 * half a file. A file that is not one JSON object is refused and left untouched, and so is a
 * read-only file that would change.
 *
 * <p>The rewritten file is indented with two spaces; the JSON text of a file that needed no change
 * is never touched, however it was formatted. Stateless and thread-safe; two processes changing one
 * file at once are not coordinated (the last rename wins).
 */
final class SettingsFile {
  /** The infix of a backup's name: {@code settings.json.memhook-backup-20261202T101500Z}. */
  static final String BACKUP_INFIX = ".memhook-backup-";

  /** The most symbolic links followed from a settings file, as the kernel's own limit. */
  private static final int MAX_LINKS = 40;

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final ObjectWriter PRETTY =
      JsonRecords.MAPPER.writer(
          new DefaultPrettyPrinter()
              .withSeparators(
                  Separators.createDefaultInstance()
                      .withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

  /**
   * Reads one JSON value and fails on anything after it: a brace closed too early makes a file
   * whose first object is valid and whose rest the agent refuses; read without this check, the rest
   * would be silently dropped when the file is written back.
   */
  private static final ObjectReader STRICT =
      JsonRecords.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * What {@link #update} did.
   *
   * @param file the settings file
   * @param written whether it was written (created or changed)
   * @param backup the copy of the old file, when one was changed
   */
  record Outcome(Path file, boolean written, Optional<Path> backup) {
    /** {@code written, backup …}, {@code created} or {@code unchanged}. */
    String describe() {
      if (!written) {
        return "unchanged";
      }
      return backup
          .map(b -> "updated (the old file is in " + b.getFileName() + ")")
          .orElse("created");
    }
  }

  private SettingsFile() {}

  /**
   * Applies {@code change} to the JSON object in {@code file} (an empty object when there is no
   * file, or it is blank) and writes the result, unless it is equal to what was there.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if the file is not one JSON object; it is
   *     left as it was
   */
  static Outcome update(Path file, Consumer<ObjectNode> change, Instant now) throws IOException {
    boolean exists = Files.exists(file);
    ObjectNode before = exists ? read(file) : JsonRecords.MAPPER.createObjectNode();
    ObjectNode after = before.deepCopy();
    change.accept(after);
    if (exists && after.equals(before)) {
      return new Outcome(file, false, Optional.empty());
    }
    return replace(file, PRETTY.writeValueAsString(after) + "\n", now);
  }

  /**
   * Replaces {@code file}'s text with {@code text} as {@link #update} does: the old file (if any)
   * backed up beside it, the new one written to a temporary file with the old one's permissions and
   * renamed over it. The caller has checked that the text changed; for settings in another format
   * than JSON ({@link CodexConfig}).
   *
   * <p>A symbolic link is written through: the file it leads to is replaced, beside itself, and the
   * link stays. Settings are often kept in a dotfiles repository and linked into place; renaming
   * over the link would turn it into a copy that the repository never sees, and leave the linked
   * file without the change.
   */
  static Outcome replace(Path file, String text, Instant now) throws IOException {
    boolean exists = Files.exists(file);
    Path target = linkTarget(file);
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Optional<Path> backup = Optional.empty();
    if (exists) {
      refuseReadOnly(file);
      backup = Optional.of(backup(file, now));
    }
    Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".memhook-tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      if (exists) {
        copyPermissions(target, tmp);
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return new Outcome(file, true, backup);
  }

  /**
   * Fails as {@link #update} would with {@code change}, writing nothing: a command that changes
   * several files checks them all first, so that a bad one leaves every file as it was.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if the file is not one JSON object, the
   *     change refuses what it holds, or the file is read-only and the change would alter it
   */
  static void check(Path file, Consumer<ObjectNode> change) throws IOException {
    if (Files.exists(file)) {
      ObjectNode before = read(file);
      ObjectNode after = before.deepCopy();
      change.accept(after);
      if (!after.equals(before)) {
        refuseReadOnly(file);
      }
    }
  }

  /**
   * Refuses to change {@code file} (through its links) if it exists and is read-only. A rename
   * replaces a file whatever its permissions, so without this the file its owner protected from
   * writes would be rewritten all the same; a read-only file that needs no change is no error.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if it is read-only
   */
  static void refuseReadOnly(Path file) throws IOException {
    Path target = linkTarget(file);
    if (Files.exists(target) && !writable(target)) {
      throw new CliException(
          ExitCode.BAD_INPUT,
          file
              + " is read-only: make it writable, or add Memhook's entries to it yourself, and run"
              + " install again; nothing was changed");
    }
  }

  /**
   * Whether {@code file} may be written: the process may write it, and, where the file system has
   * POSIX permissions, it has a write permission at all (which a superuser's access check ignores).
   */
  private static boolean writable(Path file) throws IOException {
    if (!Files.isWritable(file)) {
      return false;
    }
    try {
      Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
      return p.contains(PosixFilePermission.OWNER_WRITE)
          || p.contains(PosixFilePermission.GROUP_WRITE)
          || p.contains(PosixFilePermission.OTHERS_WRITE);
    } catch (UnsupportedOperationException notPosix) {
      return true;
    }
  }

  private static ObjectNode read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    if (text.isBlank()) {
      return JsonRecords.MAPPER.createObjectNode();
    }
    JsonNode n;
    try {
      n = STRICT.readTree(text);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw new CliException(
          ExitCode.BAD_INPUT,
          file
              + " is not valid JSON"
              + where
              + ": fix it, or move it away, and run install again;"
              + " nothing was changed");
    }
    if (!(n instanceof ObjectNode object)) {
      throw new CliException(
          ExitCode.BAD_INPUT,
          file
              + " holds no JSON object: fix it, or move it away, and run install again; nothing"
              + " was changed");
    }
    return object;
  }

  /**
   * The file {@code file} leads to through its symbolic links, itself if it is none. A link whose
   * file does not exist yet is followed too, so that the file is created where it points.
   *
   * @throws IOException if the links form a loop
   */
  private static Path linkTarget(Path file) throws IOException {
    if (Files.exists(file)) {
      return file.toRealPath();
    }
    Path target = file.toAbsolutePath();
    for (int hops = 0; Files.isSymbolicLink(target); hops++) {
      if (hops == MAX_LINKS) {
        throw new IOException(file + ": too many levels of symbolic links");
      }
      target = target.resolveSibling(Files.readSymbolicLink(target)).normalize();
    }
    return target;
  }

  /** Copies {@code file} beside itself, named for {@code now}, and returns the copy. */
  private static Path backup(Path file, Instant now) throws IOException {
    String base = file.getFileName() + BACKUP_INFIX + STAMP.format(now);
    Path backup = file.resolveSibling(base);
    for (int i = 2; Files.exists(backup); i++) {
      backup = file.resolveSibling(base + "-" + i); // a second change within the same second
    }
    Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
    return backup;
  }

  private static void copyPermissions(Path from, Path to) throws IOException {
    try {
      Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
    } catch (UnsupportedOperationException notPosix) {
      // the directory's ACL applies
    }
  }
}
