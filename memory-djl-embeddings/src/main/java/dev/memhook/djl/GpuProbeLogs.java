package dev.memhook.djl;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps DJL's GPU probes out of the host's log: the process's first model load runs with the two
 * loggers that report them at ERROR.
 *
 * <p>Design note: loading a model makes DJL look for a GPU twice, and no DJL setting turns either
 * look off. The tokenizer's native-library lookup asks the CUDA runtime how many devices there are,
 * and {@code ai.djl.util.cuda.CudaUtils} warns "Failed to detect GPU count" on a host that has a
 * CUDA runtime but no usable GPU; the ONNX Runtime engine picks its default device by trying to add
 * CUDA to a session, and {@code ai.djl.onnxruntime.engine.OrtEngine} warns "CUDA is not supported"
 * with the CPU build this module ships, on every host. Both happen once per process, in its first
 * load, and neither says anything a host can act on. So that load raises exactly these two loggers
 * to ERROR through the SLF4J binding's own levels, where the binding can be reached without
 * depending on it: Logback and java.util.logging, whose levels are put back after the load, and
 * slf4j-simple, whose levels are fixed when a logger is created, so those two stay at ERROR. A
 * level the host set on either logger itself is left alone, and no other logger is touched. With
 * another binding nothing changes; the module's README names the two loggers for the host to quiet.
 *
 * <p>Thread-safe: loads wait while the first one runs.
 */
final class GpuProbeLogs {

  /** The loggers through which DJL reports its GPU probes. */
  static final List<String> PROBE_LOGGERS =
      List.of("ai.djl.util.cuda.CudaUtils", "ai.djl.onnxruntime.engine.OrtEngine");

  /** slf4j-simple's per-logger level key, a system property or a line of its properties file. */
  static final String SIMPLE_LOGGER_PREFIX = "org.slf4j.simpleLogger.log.";

  private static final Logger LOG = LoggerFactory.getLogger(GpuProbeLogs.class);
  private static final Runnable NOTHING = () -> {};
  private static final Object FIRST_LOAD = new Object();
  private static volatile boolean probed; // a load succeeded: DJL has made its probes

  private GpuProbeLogs() {}

  /** How one binding raises a logger to ERROR and puts it back. */
  @FunctionalInterface
  interface Levels {
    /** Raises {@code logger} to ERROR unless the host set its level; returns what undoes it. */
    Runnable quiet(String logger) throws ReflectiveOperationException;
  }

  /**
   * Runs {@code load}; while no load has succeeded in this process, with the probe loggers quiet.
   */
  static <T> T duringLoad(Supplier<T> load) {
    if (probed) {
      return load.get();
    }
    synchronized (FIRST_LOAD) {
      if (probed) {
        return load.get();
      }
      List<Runnable> undo = quiet(levelsOf(LoggerFactory.getILoggerFactory().getClass().getName()));
      try {
        T loaded = load.get();
        probed = true;
        return loaded;
      } finally {
        undo.forEach(Runnable::run);
      }
    }
  }

  /** Quiets every probe logger with {@code levels}; what fails to quiet stays as it was. */
  static List<Runnable> quiet(Levels levels) {
    List<Runnable> undo = new ArrayList<>();
    for (String logger : PROBE_LOGGERS) {
      try {
        undo.add(levels.quiet(logger));
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.debug("cannot set the level of {}; DJL's GPU probe may log through it", logger, e);
      }
    }
    return undo;
  }

  /** The levels of the SLF4J binding whose logger factory is {@code factoryClass}. */
  static Levels levelsOf(String factoryClass) {
    return switch (factoryClass) {
      case "ch.qos.logback.classic.LoggerContext" -> GpuProbeLogs::quietLogback;
      case "org.slf4j.jul.JDK14LoggerFactory" -> GpuProbeLogs::quietJul;
      case "org.slf4j.simple.SimpleLoggerFactory" -> GpuProbeLogs::quietSimpleLogger;
      default -> logger -> NOTHING;
    };
  }

  static Runnable quietJul(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    if (logger.getLevel() != null) {
      return NOTHING;
    }
    logger.setLevel(java.util.logging.Level.SEVERE);
    // the closure holds the logger, which java.util.logging would otherwise let go with its level
    return () -> logger.setLevel(null);
  }

  static Runnable quietLogback(String name) throws ReflectiveOperationException {
    Object logger = LoggerFactory.getLogger(name);
    Class<?> type = logger.getClass();
    if (type.getMethod("getLevel").invoke(logger) != null) {
      return NOTHING;
    }
    Class<?> level = Class.forName("ch.qos.logback.classic.Level", false, type.getClassLoader());
    Method setLevel = type.getMethod("setLevel", level);
    setLevel.invoke(logger, level.getField("ERROR").get(null));
    return () -> {
      try {
        setLevel.invoke(logger, (Object) null);
      } catch (ReflectiveOperationException e) {
        LOG.debug("cannot put back the level of {}", name, e);
      }
    };
  }

  static Runnable quietSimpleLogger(String name) {
    String key = SIMPLE_LOGGER_PREFIX + name;
    if (System.getProperty(key) != null || simpleLoggerFile().containsKey(key)) {
      return NOTHING;
    }
    System.setProperty(key, "error");
    return () -> System.clearProperty(key);
  }

  /** slf4j-simple's {@code simplelogger.properties}, found as slf4j-simple finds it; or none. */
  private static Properties simpleLoggerFile() {
    Properties file = new Properties();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    try (InputStream in =
        context != null
            ? context.getResourceAsStream("simplelogger.properties")
            : ClassLoader.getSystemResourceAsStream("simplelogger.properties")) {
      if (in != null) {
        file.load(in);
      }
    } catch (IOException e) {
      LOG.debug("cannot read simplelogger.properties", e);
    }
    return file;
  }
}
