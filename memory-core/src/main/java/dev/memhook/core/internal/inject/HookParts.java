package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.capture.CapturePipeline;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The service's long-lived collaborators every hook of it shares, built once by the service. What
 * belongs to one hook (its chat service, options, events and tool) is each {@link
 * AsyncMemoryHook}'s own. A hook closes none of these: the service does.
 *
 * @param store what each hook's {@code get_memory} tool reads
 * @param recall the service's recall
 * @param standing the service's standing profiles, offered with a hook's first injection
 * @param capture the service's capture pipeline, which a hook whose options ask for it captures its
 *     conversation into; empty when the service captures nothing
 * @param sanitizer what every string of the model's tool arguments goes through before a fetch
 *     record keeps it
 * @param executor where hooks recall
 * @param clock the service's clock
 */
public record HookParts(
    MemoryStore store,
    HookRecall recall,
    StandingProfiles standing,
    Optional<CapturePipeline> capture,
    Sanitizer sanitizer,
    Executor executor,
    Clock clock) {

  public HookParts {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(recall, "recall");
    Objects.requireNonNull(standing, "standing");
    Objects.requireNonNull(capture, "capture");
    Objects.requireNonNull(sanitizer, "sanitizer");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(clock, "clock");
  }
}
