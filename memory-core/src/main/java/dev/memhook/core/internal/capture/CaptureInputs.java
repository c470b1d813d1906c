package dev.memhook.core.internal.capture;

import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a service gives the capture it opens: capture's options and the service's collaborators
 * capture writes and reports through. None of them is capture's to close. Where capture keeps its
 * own records is {@link CaptureStorage}.
 *
 * @param options capture's options
 * @param clock the service's clock
 * @param sanitizer what every string of an accepted event goes through first
 * @param store where observations are stored: the service's store, behind its journal when the
 *     service logs its writes
 * @param embedder embeds observations as documents
 * @param intake completes an observation as the service completes a host's draft
 * @param writes the service's own remember and update, for consolidated memories
 * @param events told of observations stored, compressor and consolidator fallbacks and events shed
 */
public record CaptureInputs(
    CaptureOptions options,
    Clock clock,
    Sanitizer sanitizer,
    MemoryStore store,
    Embedder embedder,
    MemoryIntake intake,
    ServiceWrites writes,
    Consumer<CaptureEvent> events) {

  public CaptureInputs {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(sanitizer, "sanitizer");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(intake, "intake");
    Objects.requireNonNull(writes, "writes");
    Objects.requireNonNull(events, "events");
  }
}
