package dev.memhook.core.internal.capture;

import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What capture does when its session store fails: count the failure ({@code
 * CaptureStats.sessionStoreFailures}) and log it, at WARN at most once per interval, so a database
 * outage does not bury the log. Never throws. Thread-safe.
 */
final class SessionStoreFailures {

  private static final Logger LOG = LoggerFactory.getLogger(SessionStoreFailures.class);

  private final LongAdder count;
  private final WarnLimiter warnings = new WarnLimiter(Duration.ofSeconds(30), System::nanoTime);

  SessionStoreFailures(LongAdder count) {
    this.count = count;
  }

  /** Counts and logs a failure; {@code what} says what failed and what happens next. */
  void report(String what, RuntimeException e) {
    count.increment();
    WarnLimiter.Decision d = warnings.next();
    if (d.warn()) {
      LOG.warn("memhook capture: {} ({} similar held back)", what, d.heldBack(), e);
    } else {
      LOG.debug("memhook capture: {}", what, e);
    }
  }
}
