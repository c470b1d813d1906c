package dev.memhook.djl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DJL's process-wide switches, set before DJL is first touched.
 *
 * <p>Design note: DJL reads its offline mode only from the environment variable {@code DJL_OFFLINE}
 * or the system property {@code ai.djl.offline}; there is no per-model setting. When neither is set
 * we set the property to {@code true}, once, so that DJL never tries to download an engine, a model
 * or a tokenizer, and skips its EC2 usage tracking (which would otherwise probe the
 * instance-metadata address). This is the one process-wide change this module makes; it only ever
 * turns network access off, so two applications in one JVM cannot disagree about it. A host that
 * set the switch to {@code false} keeps its choice and gets a warning.
 */
final class DjlRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(DjlRuntime.class);

  static final String OFFLINE_PROPERTY = "ai.djl.offline";
  static final String OFFLINE_ENV = "DJL_OFFLINE";

  private DjlRuntime() {}

  /** Turns DJL's offline mode on unless the host chose a value. Thread-safe and idempotent. */
  static synchronized void ensureOffline() {
    String env = System.getenv(OFFLINE_ENV);
    String effective = env != null ? env : System.getProperty(OFFLINE_PROPERTY);
    if (effective == null) {
      System.setProperty(OFFLINE_PROPERTY, "true");
      LOG.debug("set {}=true so that DJL never downloads anything", OFFLINE_PROPERTY);
    } else if (!Boolean.parseBoolean(effective)) {
      LOG.warn(
          "DJL offline mode is off ({}={}): Memhook loads models from local files only, but DJL"
              + " itself may contact the network; set {}=true to prevent it",
          env != null ? OFFLINE_ENV : OFFLINE_PROPERTY,
          effective,
          OFFLINE_PROPERTY);
    }
  }
}
