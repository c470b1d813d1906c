package dev.memhook.cli;

import dev.memhook.api.ImportProgress;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Import progress on standard error, with the rate and the time left. On a terminal it is one line
 * redrawn in place, {@code [########------------] 512/2000 340/s ETA 0:04}; otherwise (a pipe, a
 * log file, a CI job) it is a plain line each time another tenth of the total is stored, {@code
 * stored 512/2000 340/s ETA 0:04}, so a log holds no carriage returns and at most ten such lines.
 *
 * <p>Java 17 cannot tell whether standard error alone is a terminal: the run's {@link Terminal}
 * (the process's console, which needs standard input and output to be terminals) stands in for it.
 * Not thread-safe: reports come on the importing thread.
 */
final class ProgressBar implements Consumer<ImportProgress> {
  private static final int WIDTH = 30;
  private static final int TENTHS = 10;

  private final PrintStream err;
  private final boolean redraw;
  private boolean drawn;
  private long nextTenth = 1;

  private ProgressBar(PrintStream err, boolean redraw) {
    this.err = err;
    this.redraw = redraw;
  }

  /** The progress of a run in {@code context}: redrawn on its terminal, plain lines without one. */
  static ProgressBar on(CliContext context) {
    return new ProgressBar(context.err(), context.terminal().interactive());
  }

  @Override
  public void accept(ImportProgress p) {
    String eta = p.remaining().map(d -> Sizes.clock(d.toSeconds())).orElse("?");
    if (!redraw) {
      long tenth = p.total() == 0 ? TENTHS : (long) TENTHS * p.stored() / p.total();
      if (tenth >= nextTenth) {
        nextTenth = tenth + 1;
        err.println(
            String.format(
                Locale.ROOT,
                "stored %d/%d  %.0f/s  ETA %s",
                p.stored(),
                p.total(),
                p.perSecond(),
                eta));
      }
      return;
    }
    int filled = p.total() == 0 ? WIDTH : (int) ((long) WIDTH * p.stored() / p.total());
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

  /** Ends the redrawn line, if one was drawn. */
  void finish() {
    if (drawn) {
      err.println();
    }
  }
}
