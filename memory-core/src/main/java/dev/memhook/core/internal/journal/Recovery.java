package dev.memhook.core.internal.journal;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What opening a locked journal directory finds and repairs: the checkpoint, the segments, the last
 * sequence number; a torn tail is truncated (WARN), damage is counted (ERROR). Applies the repair
 * rules of {@link Journal}'s design note with the facts {@link SegmentScanner} reports.
 *
 * @param segments the segments, oldest first, the last one current; never empty
 * @param lastSequence the highest sequence number in the journal or the checkpoint
 * @param appliedThrough the checkpoint
 * @param damagedRecords records found unreadable and skipped
 * @param created whether the current segment file was created just now
 */
record Recovery(
    List<Segment> segments,
    long lastSequence,
    long appliedThrough,
    long damagedRecords,
    boolean created) {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

  Recovery {
    segments = List.copyOf(segments);
  }

  /** Recovers the journal in {@code directory}, which the caller has locked. */
  static Recovery of(Path directory) throws IOException {
    long applied = Checkpoint.read(directory);
    List<Segment> segments = Segment.list(directory);
    long damaged = 0;
    long lastSeq = 0;
    for (int i = 0; i < segments.size(); i++) {
      Segment segment = segments.get(i);
      boolean last = i == segments.size() - 1;
      long upperBound = last ? Long.MAX_VALUE : segments.get(i + 1).firstSeq - 1;
      if (!last && upperBound <= applied) {
        continue; // applied throughout: deleted once open, not worth reading
      }
      SegmentScanner.Result scan = scan(segment, last, upperBound);
      damaged += scan.damagedRecords();
      if (last) {
        lastSeq = scan.lastSeq();
      }
    }
    lastSeq = Math.max(lastSeq, applied);
    boolean created = segments.isEmpty();
    if (created) {
      Path file = Segment.file(directory, lastSeq + 1);
      FileChannel.open(file, CREATE_NEW, WRITE).close();
      segments.add(new Segment(file, lastSeq + 1, 0));
    }
    return new Recovery(segments, lastSeq, applied, damaged, created);
  }

  private static SegmentScanner.Result scan(Segment segment, boolean last, long upperBound)
      throws IOException {
    try (FileChannel channel = FileChannel.open(segment.path, READ, WRITE)) {
      SegmentScanner.Result scan =
          new SegmentScanner(channel, segment.bytes, segment.firstSeq, upperBound)
              .scan(last, null, 0);
      for (SegmentScanner.Damage damage : scan.damage()) {
        LOG.error(
            "Journal segment {} is damaged at bytes {}..{}: skipped {} unreadable record(s),"
                + " which will not be replayed",
            segment.path,
            damage.from(),
            damage.to(),
            damage.records());
      }
      if (scan.tornAt() >= 0) {
        LOG.warn(
            "Journal segment {} ends in an incomplete record at offset {} ({} bytes): an append"
                + " that never returned; truncating the segment there",
            segment.path,
            scan.tornAt(),
            segment.bytes - scan.tornAt());
        channel.truncate(scan.tornAt());
        segment.bytes = scan.tornAt();
      }
      return scan;
    }
  }
}
