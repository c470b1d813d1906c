package dev.memhook.springai.autoconfigure;

import dev.memhook.core.Memhook;

/**
 * Adjusts the builder of the auto-configured {@code MemoryService} before it is built: how optional
 * parts (the Micrometer listener) join the service without the service's bean method naming their
 * types, which may be missing from the class path. Applied in bean order.
 *
 * <p>Package-private: a contract between this package's configurations, not for hosts (a host that
 * needs its own builder defines its own {@code MemoryService} bean).
 */
@FunctionalInterface
interface MemhookServiceCustomizer {

  /** Sets what this customizer contributes; each builder setter may be called once. */
  void customize(Memhook.Builder builder);
}
