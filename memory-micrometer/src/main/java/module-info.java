/**
 * {@link dev.memhook.micrometer.MemhookMetrics}: a listener that reports what the service does as
 * Micrometer meters.
 *
 * <p>The "requires-automatic" and "requires-transitive-automatic" lints are suppressed here only:
 * Micrometer's jars are automatic modules (named by their manifests), and a registry is part of
 * this module's API, so it is required transitively.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.memhook.micrometer {
  requires transitive dev.memhook.api;
  requires transitive micrometer.core;

  exports dev.memhook.micrometer;
}
