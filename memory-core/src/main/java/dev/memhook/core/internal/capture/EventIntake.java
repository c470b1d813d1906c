package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Clock;
import java.util.function.Predicate;

/**
 * What {@code observe} does before an event may be called accepted, in order: check it whole
 * ({@link EventValidation}), give it the clock's time if it has none, sanitize and cut every string
 * ({@link EventScrub}), refuse an unknown session that names no project and cwd, derive its
 * duplicate key and observation id ({@link EventKeys}) and its scope. Nothing durable happens here;
 * an {@link IllegalArgumentException} rejects the event whole.
 *
 * <p>Thread-safe.
 */
final class EventIntake {

  private final CaptureOptions options;
  private final Clock clock;
  private final EventScrub scrub;
  private final Predicate<String> knownSession;

  EventIntake(
      CaptureOptions options, Clock clock, Sanitizer sanitizer, Predicate<String> knownSession) {
    this.options = options;
    this.clock = clock;
    this.scrub = new EventScrub(sanitizer, options.maxRawChars());
    this.knownSession = knownSession;
  }

  /**
   * The accepted form of {@code event}, stored in {@code scope}, or, when that is null, in the
   * scope the options give its project.
   */
  AcceptedEvent accept(LifecycleEvent event, Scope scope) {
    EventValidation.check(event);
    LifecycleEvent timed =
        event.timestamp() != null
            ? event
            : new LifecycleEvent(
                event.type(),
                event.sessionId(),
                event.project(),
                event.cwd(),
                clock.instant(),
                event.eventId(),
                event.data());
    EventScrub.Result scrubbed = scrub.scrub(timed);
    LifecycleEvent clean = scrubbed.event();
    boolean namesPlace = clean.project() != null && clean.cwd() != null;
    if (!namesPlace && !knownSession.test(clean.sessionId())) {
      throw new IllegalArgumentException(
          "session '"
              + clean.sessionId()
              + "' is unknown: the first event of a session must name its project and cwd");
    }
    String key = EventKeys.key(clean);
    MemoryId id = EventKeys.observationId(key);
    return new AcceptedEvent(
        clean,
        key,
        id,
        scope != null ? scope : scopeFor(clean),
        clock.instant(),
        scrubbed.truncated());
  }

  /** The options' scope, or below it the project's own, as {@link CaptureOptions} states. */
  Scope scopeFor(LifecycleEvent e) {
    Scope base = options.scope();
    if (!options.scopePerProject() || e.project() == null) {
      return base;
    }
    StringBuilder slug = new StringBuilder();
    for (int i = 0; i < e.project().length() && slug.length() < 64; i++) {
      char c = e.project().charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || ".@+-".indexOf(c) >= 0;
      slug.append(ok ? c : '-');
    }
    return new Scope(base.value() + "/" + slug);
  }
}
