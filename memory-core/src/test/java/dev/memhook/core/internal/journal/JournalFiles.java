package dev.memhook.core.internal.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** What the journal tests do to a journal's files and read back from a journal. */
final class JournalFiles {

  private JournalFiles() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Every record {@link Journal#replay} hands out, in order. */
  static List<Journal.Entry> replayed(Journal journal) {
    List<Journal.Entry> entries = new ArrayList<>();
    journal.replay(entries::add);
    return entries;
  }

  static List<Long> seqs(List<Journal.Entry> entries) {
    return entries.stream().map(Journal.Entry::seq).toList();
  }

  /** The segment files in {@code directory}, oldest first. */
  static List<Path> segmentFiles(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(file -> file.getFileName().toString().matches("journal-\\d{20}\\.log"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path lastSegment(Path directory) {
    List<Path> files = segmentFiles(directory);
    return files.get(files.size() - 1);
  }

  static void truncate(Path file, long length) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(length);
    }
  }

  /** Changes the byte at {@code offset} of {@code file} to a different value. */
  static void flipByte(Path file, long offset) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) (one.get(0) ^ 0x5A)).position(0);
      channel.write(one, offset);
    }
  }
}
