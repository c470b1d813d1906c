package dev.memhook.core.internal;

import static com.google.common.base.Preconditions.checkState;

import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.MemoryCapture;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.core.internal.capture.CapturePipeline;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link MemoryCapture} view of a {@link LocalMemoryService}: the service's capture pipeline,
 * or, for a service that captures nothing, an empty view that refuses to observe or consolidate.
 *
 * <p>Thread-safe: the pipeline is.
 */
final class ServiceCapture implements MemoryCapture {

  private final Liveness liveness;

  /** Empty when the service captures nothing (read-only, or built without capture). */
  private final Optional<CapturePipeline> pipeline;

  ServiceCapture(Liveness liveness, Optional<CapturePipeline> pipeline) {
    this.liveness = Objects.requireNonNull(liveness, "liveness");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
  }

  @Override
  public boolean enabled() {
    return pipeline.isPresent();
  }

  @Override
  public ObserveResult observe(LifecycleEvent event) {
    Objects.requireNonNull(event, "event");
    return pipeline().observe(event);
  }

  @Override
  public ObserveResult observeJson(String json) {
    Objects.requireNonNull(json, "json");
    return pipeline().observeJson(json);
  }

  @Override
  public ObserveResult observeJson(String json, Scope scope) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(scope, "scope");
    return pipeline().observeJson(json, scope);
  }

  @Override
  public boolean flush(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    liveness.check();
    // a service that captures nothing has nothing to wait for
    return pipeline.map(p -> p.flush(timeout)).orElse(true);
  }

  @Override
  public CaptureStats stats() {
    liveness.check();
    return pipeline.map(CapturePipeline::stats).orElse(CaptureStats.NONE);
  }

  @Override
  public Optional<Session> session(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    liveness.check();
    return pipeline.flatMap(p -> p.session(sessionId));
  }

  @Override
  public List<Session> sessions() {
    liveness.check();
    return pipeline.map(CapturePipeline::sessions).orElse(List.of());
  }

  @Override
  public List<Memory> observations(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    liveness.check();
    return pipeline.map(p -> p.observations(sessionId)).orElse(List.of());
  }

  @Override
  public int consolidate(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    return pipeline().consolidate(sessionId);
  }

  private CapturePipeline pipeline() {
    liveness.check();
    checkState(pipeline.isPresent(), "this memory service is read-only: it captures nothing");
    return pipeline.get();
  }

  @Override
  public String toString() {
    return pipeline.map(p -> "MemoryCapture[" + p + "]").orElse("MemoryCapture[none]");
  }
}
