package dev.memhook.micrometer;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.RequestAppearance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Micrometer meters for one {@link MemoryService}, fed by its {@link MemoryListener} events: recall
 * time, injection attempts by outcome, memories injected, gate drops, the model's fetches, capture
 * events and deliveries, plus the service's own listener and capture counters and memory counts for
 * the scopes the host names. The module README lists every meter with its tags.
 *
 * <pre>{@code
 * MemhookMetrics metrics = MemhookMetrics.builder().scopes(List.of(Scope.of("acme"))).build();
 * metrics.bindTo(registry);                          // the event meters, before any event
 * MemoryService memory = Memhook.builder().directory(dir).listener(metrics).build();
 * metrics.serviceMeters(memory).bindTo(registry);    // the meters that read the service
 * }</pre>
 *
 * <h2>Design note: bounded cardinality</h2>
 *
 * Every tag takes its values from a closed set (an enum of the API, or the scopes given to the
 * builder), and every meter is registered when it is bound, at zero: the number of meters is fixed
 * by the configuration and never grows with memories, messages, conversations, hooks or ids.
 * Nothing about a single memory, message or conversation is ever a tag.
 *
 * <h2>Receipts and deliveries</h2>
 *
 * An attempt's outcome, recall time, gate drops and injected memories are counted from {@link
 * #receipt}, which a service calls once per attempt; each request that carried a pair is one {@code
 * memhook.deliveries} from {@link #delivered}. An event the listener dispatch dropped ({@code
 * memhook.listener.dropped}) is not counted.
 *
 * <h2>Per-signal recall time</h2>
 *
 * A receipt carries the whole recall's time, recorded as {@code memhook.recall{signal=all}}, and
 * each signal's ({@link dev.memhook.api.trace.InjectionReceipt#recallTimes()}), recorded under
 * {@code text}, {@code vector}, {@code graph} and {@code neighbour}. A host that calls {@link
 * MemoryService#recall} itself can feed the per-signal timers with {@link
 * #recordRecall(RecallResult)}.
 *
 * <h2>Contract</h2>
 *
 * Thread-safe and stateless apart from the registries it is bound to; the listener methods never
 * throw for a well-formed event. Events that arrive before the first registry is bound are not
 * counted. Binding the same registry again does nothing. One instance serves one service: to
 * measure several services in one registry, give each its own instance with a distinguishing common
 * tag ({@link Builder#tags}). Bind it to one registry per backend, or to the composite only, never
 * to a composite and its members (they would count each event twice).
 */
public final class MemhookMetrics implements MemoryListener, MeterBinder {

  /**
   * The most scopes {@link Builder#scopes} takes: each is one gauge that asks the store for a count
   * on every scrape, so the list is for the few scopes an operator watches (tenants, shared
   * scopes), not for one scope per user.
   */
  public static final int MAX_SCOPES = 64;

  /** The tag keys the meters use, which a common tag must not reuse. */
  static final Set<String> RESERVED_TAG_KEYS =
      Set.of(
          EventMeters.SIGNAL,
          EventMeters.PHASE,
          EventMeters.OUTCOME,
          EventMeters.RULE,
          EventMeters.KIND,
          ServiceMeters.SCOPE);

  private final Tags tags;
  private final List<Scope> scopes;
  private final List<Bound> bound = new CopyOnWriteArrayList<>();

  private record Bound(MeterRegistry registry, EventMeters meters) {}

  private MemhookMetrics(Builder b) {
    this.tags = b.tags;
    this.scopes = List.copyOf(b.scopes);
  }

  /** A builder with no common tags and no scope gauges. */
  public static Builder builder() {
    return new Builder();
  }

  /** Metrics with no common tags and no scope gauges. */
  public static MemhookMetrics create() {
    return builder().build();
  }

  /** The scopes that get a {@code memhook.store.memories} gauge, in the order given. */
  public List<Scope> scopes() {
    return scopes;
  }

  /**
   * Registers the meters this listener feeds on {@code registry}, at zero, and records later events
   * there. Bind before building the service, so no event is missed. Binding a registry a second
   * time does nothing.
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    for (Bound b : bound) {
      if (b.registry() == registry) {
        return;
      }
    }
    bound.add(new Bound(registry, EventMeters.register(registry, tags)));
  }

  /**
   * A binder for the meters that read {@code service} when a registry is scraped: its listener and
   * capture counters, and {@link dev.memhook.api.MemoryMaintenance#count(Scope)} for each of {@link
   * #scopes()}, with this instance's common tags. Binding the returned binder to a registry again
   * does nothing. Once the service is closed, its function counters keep their last value and its
   * gauges read {@code NaN}. The meters hold the service weakly, as Micrometer's do.
   *
   * @param service the service this listener was given to
   */
  public MeterBinder serviceMeters(MemoryService service) {
    Objects.requireNonNull(service, "service");
    List<MeterRegistry> done = new ArrayList<>();
    return registry -> {
      Objects.requireNonNull(registry, "registry");
      synchronized (done) {
        // Micrometer warns about a function counter registered twice; Spring Boot binds every
        // MeterBinder bean again, so a repeated registry is skipped here
        if (done.stream().noneMatch(r -> r == registry)) {
          ServiceMeters.register(registry, tags, service, scopes);
          done.add(registry);
        }
      }
    };
  }

  @Override
  public void receipt(InjectionReceipt receipt) {
    Objects.requireNonNull(receipt, "receipt");
    InjectionOutcome outcome = InjectionOutcome.of(receipt);
    for (Bound b : bound) {
      b.meters().attempt(receipt, outcome);
    }
  }

  @Override
  public void delivered(InjectionReceipt receipt, RequestAppearance appearance) {
    Objects.requireNonNull(receipt, "receipt");
    Objects.requireNonNull(appearance, "appearance");
    for (Bound b : bound) {
      b.meters().delivered();
    }
  }

  @Override
  public void fetched(FetchRecord fetch) {
    Objects.requireNonNull(fetch, "fetch");
    for (Bound b : bound) {
      b.meters().fetched(fetch);
    }
  }

  @Override
  public void captured(CaptureEvent event) {
    Objects.requireNonNull(event, "event");
    for (Bound b : bound) {
      b.meters().captured(event.kind());
    }
  }

  /**
   * Records each signal's search time of a recall the host made itself ({@link
   * MemoryService#recall}) as {@code memhook.recall{signal=text|vector|graph|neighbour}}. A signal
   * the result has no time for is not recorded. Hooks' recalls are recorded from their receipts,
   * whole and per signal; do not pass their results here.
   */
  public void recordRecall(RecallResult result) {
    Objects.requireNonNull(result, "result");
    for (Bound b : bound) {
      b.meters().recall(result.took());
    }
  }

  /** How a receipt's attempt ended, for {@code memhook.injections{outcome}}. */
  enum InjectionOutcome {
    /** The pair was queued on the chat service. */
    INJECTED,
    /** Recall answered, and no candidate passed the gate. */
    EMPTY,
    /** Some candidates passed, and none was new to this hook (or over a cap). */
    SKIPPED,
    /** Recall failed, or queueing the pair did. */
    FAILED,
    /** The hook stopped waiting for recall. */
    TIMED_OUT;

    final String tag = EventMeters.tag(this);

    static InjectionOutcome of(InjectionReceipt r) {
      PhaseStatus.Status recall = r.recall().status();
      if (recall == PhaseStatus.Status.TIMED_OUT) {
        return TIMED_OUT;
      }
      if (recall == PhaseStatus.Status.FAILED) {
        return FAILED;
      }
      return switch (r.injection().status()) {
        case OK -> INJECTED;
        case FAILED -> FAILED;
        default -> r.gate().status() == PhaseStatus.Status.EMPTY ? EMPTY : SKIPPED;
      };
    }
  }

  /**
   * Builds {@link MemhookMetrics}. Not thread-safe. Each setter may be called once; a second call
   * throws {@link IllegalStateException}.
   */
  public static final class Builder {
    private Tags tags = Tags.empty();
    private boolean tagsSet;
    private List<Scope> scopes = List.of();
    private boolean scopesSet;

    private Builder() {}

    /**
     * Common tags added to every meter, such as the application or service name: bounded values
     * only.
     *
     * @throws IllegalArgumentException if a key is one the meters use themselves ({@code signal},
     *     {@code phase}, {@code outcome}, {@code rule}, {@code kind}, {@code scope})
     */
    public Builder tags(Iterable<Tag> value) {
      Objects.requireNonNull(value, "tags");
      if (tagsSet) {
        throw new IllegalStateException("tags were already set to " + tags);
      }
      Tags t = Tags.of(value);
      for (Tag tag : t) {
        if (RESERVED_TAG_KEYS.contains(tag.getKey())) {
          throw new IllegalArgumentException(
              "common tag key '" + tag.getKey() + "' is used by Memhook's meters; rename it");
        }
      }
      this.tags = t;
      this.tagsSet = true;
      return this;
    }

    /**
     * The scopes to count memories in, one {@code memhook.store.memories{scope}} gauge each; a
     * repeated scope counts once. Name the few scopes an operator watches: at most {@value
     * MemhookMetrics#MAX_SCOPES}.
     *
     * @throws IllegalArgumentException if there are more than {@value MemhookMetrics#MAX_SCOPES}
     */
    public Builder scopes(Collection<Scope> value) {
      Objects.requireNonNull(value, "scopes");
      if (scopesSet) {
        throw new IllegalStateException("scopes were already set to " + scopes);
      }
      Set<Scope> distinct = new LinkedHashSet<>();
      for (Scope s : value) {
        distinct.add(Objects.requireNonNull(s, "scope"));
      }
      if (distinct.size() > MAX_SCOPES) {
        throw new IllegalArgumentException(
            "at most "
                + MAX_SCOPES
                + " scopes get a memory-count gauge, got "
                + distinct.size()
                + "; name the scopes an operator watches, not one per user");
      }
      this.scopes = new ArrayList<>(distinct);
      this.scopesSet = true;
      return this;
    }

    /** Builds the metrics; they count nothing until {@link MemhookMetrics#bindTo bound}. */
    public MemhookMetrics build() {
      return new MemhookMetrics(this);
    }
  }
}
