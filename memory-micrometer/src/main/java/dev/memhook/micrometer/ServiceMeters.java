package dev.memhook.micrometer;

import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The meters that read a {@link MemoryService} when the registry is scraped: its listener and
 * capture counters and its memory count per named scope. They hold the service weakly, as
 * Micrometer does, so they never keep a discarded service alive.
 *
 * <p>A closed service throws {@link IllegalStateException} from some of these methods: a function
 * counter then keeps the last value it read (a counter must not go back), and a gauge reads {@code
 * NaN} (there is no current value).
 */
final class ServiceMeters {

  static final String SCOPE = "scope";

  private ServiceMeters() {}

  static void register(
      MeterRegistry registry, Tags common, MemoryService service, List<Scope> scopes) {
    counter(
        registry,
        common,
        service,
        "memhook.listener.failures",
        "Listener calls that threw (logged and otherwise ignored)",
        s -> s.trace().listenerStats().failed());
    counter(
        registry,
        common,
        service,
        "memhook.listener.dropped",
        "Listener events dropped because the listeners fell too far behind",
        s -> s.trace().listenerStats().dropped());
    counter(
        registry,
        common,
        service,
        "memhook.capture.failures",
        "Accepted capture events the pipeline could not store (retried when the service reopens)",
        s -> s.capture().stats().failed());
    Gauge.builder(
            "memhook.capture.pending", service, s -> read(s, x -> x.capture().stats().pending()))
        .description("Accepted capture events not yet processed")
        .baseUnit("events")
        .tags(common)
        .register(registry);
    for (Scope scope : scopes) {
      Gauge.builder(
              "memhook.store.memories", service, s -> read(s, x -> x.maintenance().count(scope)))
          .description("Latest memories in a scope the host named")
          .baseUnit("memories")
          .tags(common)
          .tag(SCOPE, scope.value())
          .register(registry);
    }
  }

  private static void counter(
      MeterRegistry registry,
      Tags common,
      MemoryService service,
      String name,
      String description,
      ToLongFunction<MemoryService> value) {
    LastValue last = new LastValue(value);
    FunctionCounter.builder(name, service, last::read)
        .description(description)
        .tags(common)
        .register(registry);
  }

  private static double read(MemoryService service, ToLongFunction<MemoryService> value) {
    try {
      return value.applyAsLong(service);
    } catch (IllegalStateException closed) {
      return Double.NaN;
    }
  }

  /** A monotonic reading that keeps its last value once the service is closed. */
  private static final class LastValue {
    private final ToLongFunction<MemoryService> value;
    private volatile double last;

    LastValue(ToLongFunction<MemoryService> value) {
      this.value = value;
    }

    double read(MemoryService service) {
      try {
        last = value.applyAsLong(service);
      } catch (IllegalStateException closed) {
        // the counter stays where it was
      }
      return last;
    }
  }
}
