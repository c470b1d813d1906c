package dev.memhook.core.internal.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's checkpoint file: the highest sequence number its consumer applied, in 16 bytes
 * (magic int, sequence long, CRC32C int of the first 12).
 *
 * <p>Written to a temporary file that is then renamed over the old one with {@code ATOMIC_MOVE}, so
 * a reader sees the old checkpoint or the new one, never a mix. Neither file is fsynced: after a
 * power loss the rename may be lost or the file may come back empty, and then the journal replays
 * from an older checkpoint or from its oldest segment. That only delivers applied records again,
 * which consumers must tolerate anyway (they are idempotent), and segments are deleted only after
 * the checkpoint that covers them was written. An fsync here would cost a disk flush on every
 * {@link Journal#markApplied} to save replays after the rare power loss. Stateless.
 */
final class Checkpoint {
  private static final Logger LOG = LoggerFactory.getLogger(Checkpoint.class);

  static final String FILE_NAME = "journal.checkpoint";
  private static final String TEMP_NAME = FILE_NAME + ".tmp";
  private static final int MAGIC = 0x4D484350; // "MHCP"
  private static final int BYTES = 4 + 8 + 4;

  private Checkpoint() {}

  /**
   * The checkpoint in {@code directory}: 0 if there is none, or (with a WARN) if it cannot be read,
   * which replays every record still in the journal.
   */
  static long read(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      LOG.warn("Could not read the journal checkpoint {}; replaying every record", file, e);
      return 0;
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    if (bytes.length != BYTES || buffer.getInt(0) != MAGIC || buffer.getInt(12) != crc(bytes)) {
      LOG.warn(
          "The journal checkpoint {} is damaged ({} bytes); replaying every record",
          file,
          bytes.length);
      return 0;
    }
    long applied = buffer.getLong(4);
    if (applied < 0) {
      LOG.warn("The journal checkpoint {} holds {}; replaying every record", file, applied);
      return 0;
    }
    return applied;
  }

  /** Replaces the checkpoint in {@code directory} with {@code applied}. */
  static void write(Path directory, long applied) throws IOException {
    byte[] bytes = new byte[BYTES];
    ByteBuffer buffer = ByteBuffer.wrap(bytes).putInt(MAGIC).putLong(applied);
    buffer.putInt(crc(bytes));
    Path temp = directory.resolve(TEMP_NAME);
    Files.write(temp, bytes);
    Files.move(
        temp,
        directory.resolve(FILE_NAME),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  private static int crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 12);
    return (int) crc.getValue();
  }
}
