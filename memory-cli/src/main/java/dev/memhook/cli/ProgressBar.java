package dev.memhook.cli;

import dev.memhook.api.ImportProgress;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A one-line progress bar on standard error, redrawn in place, with the rate and the time left:
 * {@code [########------------] 512/2000 340/s ETA 0:04}. Not thread-safe: reports come on the
 * importing thread.
 */
final class ProgressBar implements Consumer<ImportProgress> {
  private static final int WIDTH = 30;

  private final PrintStream err;
  private boolean drawn;

  ProgressBar(PrintStream err) {
    this.err = err;
  }

  @Override
  public void accept(ImportProgress p) {
    int filled = p.total() == 0 ? WIDTH : (int) ((long) WIDTH * p.stored() / p.total());
    String eta = p.remaining().map(d -> Sizes.clock(d.toSeconds())).orElse("?");
    err.print(
        String.format(
            Locale.ROOT,
            "\r[%s%s] %d/%d  %.0f/s  ETA %s ",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            p.stored(),
            p.total(),
            p.perSecond(),
            eta));
    err.flush();
    drawn = true;
  }

  /** Ends the line, if a bar was drawn. */
  void finish() {
    if (drawn) {
      err.println();
    }
  }
}
