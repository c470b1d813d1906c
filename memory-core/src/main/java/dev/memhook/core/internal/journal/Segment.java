package dev.memhook.core.internal.journal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One segment file of a journal, named by the sequence number of its first record, zero-padded to
 * 20 digits so that the order of names is the order of records. Not thread-safe: {@link
 * FileJournal} guards {@link #bytes} with its append lock.
 */
final class Segment {

  private static final Pattern NAME = Pattern.compile("journal-(\\d{20})\\.log");

  final Path path;
  final long firstSeq;

  /** The segment's length: where the next frame goes, for the current segment. */
  long bytes;

  Segment(Path path, long firstSeq, long bytes) {
    this.path = path;
    this.firstSeq = firstSeq;
    this.bytes = bytes;
  }

  /** The file of the segment in {@code directory} whose first record is {@code firstSeq}. */
  static Path file(Path directory, long firstSeq) {
    return directory.resolve(String.format("journal-%020d.log", firstSeq));
  }

  /** The segments in {@code directory}, oldest first; files with other names are left alone. */
  static List<Segment> list(Path directory) throws IOException {
    List<Segment> segments = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "journal-*.log")) {
      for (Path file : files) {
        Matcher name = NAME.matcher(file.getFileName().toString());
        if (name.matches() && Files.isRegularFile(file)) {
          long firstSeq = parseSeq(name.group(1));
          if (firstSeq > 0) {
            segments.add(new Segment(file, firstSeq, Files.size(file)));
          }
        }
      }
    }
    segments.sort(Comparator.comparingLong(segment -> segment.firstSeq));
    return segments;
  }

  /** The number in a name, or -1 if it overflows a long (no journal writes such a name). */
  private static long parseSeq(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
