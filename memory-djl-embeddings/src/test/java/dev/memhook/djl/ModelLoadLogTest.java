package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What loading the bundled model writes to the host's log. DJL probes for a GPU once per process,
 * so the load runs in a JVM of its own, as a host's first load would, logging through slf4j-simple
 * at INFO.
 */
class ModelLoadLogTest {

  private static final String ORT_PROBE = "WARN ai.djl.onnxruntime.engine.OrtEngine - CUDA is not";

  /**
   * The child: loads the bundled model, embeds one text, and says whether a warning of another
   * logger under {@code ai.djl} would still be logged and whether any level property was left set.
   */
  static final class LoadBundledModel {
    public static void main(String[] args) {
      try (DjlEmbedder embedder = DjlEmbedder.bundledMiniLm()) {
        Embedding v = embedder.embed("the cat sits on the mat");
        System.out.println("dimension " + v.dimension());
      }
      System.out.println(
          "other djl warnings logged: "
              + LoggerFactory.getLogger("ai.djl.repository.zoo.Criteria").isWarnEnabled());
      for (String logger : GpuProbeLogs.PROBE_LOGGERS) {
        String key = GpuProbeLogs.SIMPLE_LOGGER_PREFIX + logger;
        System.out.println(key + " = " + System.getProperty(key));
      }
    }
  }

  private static String loadInAFreshJvm(String... properties) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-Dai.djl.offline=true");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    command.addAll(List.of(properties));
    command.add(LoadBundledModel.class.getName());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (InputStream in = child.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(child.waitFor(2, TimeUnit.MINUTES), output);
    assertEquals(0, child.exitValue(), output);
    assertTrue(output.contains("dimension 384"), output);
    assertTrue(
        output.contains("INFO dev.memhook.djl.DjlEmbedderBuilder - loaded embedding model"),
        "the child's log is captured: " + output);
    return output;
  }

  @Test
  void theFirstLoad_logsNoGpuProbeWarning_andLeavesOtherLoggersAndNoPropertyBehind()
      throws Exception {
    String output = loadInAFreshJvm();

    List<String> warnings = output.lines().filter(l -> l.contains(" WARN ")).toList();
    assertEquals(List.of(), warnings, output);
    assertTrue(output.contains("other djl warnings logged: true"), output);
    for (String logger : GpuProbeLogs.PROBE_LOGGERS) {
      assertTrue(output.contains(GpuProbeLogs.SIMPLE_LOGGER_PREFIX + logger + " = null"), output);
    }
  }

  @Test
  void aLevelTheHostSetOnAProbeLogger_isKept_soItsWarningShows() throws Exception {
    String output =
        loadInAFreshJvm(
            "-D" + GpuProbeLogs.SIMPLE_LOGGER_PREFIX + "ai.djl.onnxruntime.engine.OrtEngine=warn");

    assertTrue(output.contains(ORT_PROBE), "the engine probes on every CPU host: " + output);
    assertTrue(
        output.contains(
            GpuProbeLogs.SIMPLE_LOGGER_PREFIX + "ai.djl.onnxruntime.engine.OrtEngine = warn"),
        output);
  }

  @Test
  void javaUtilLogging_quietsAProbeLoggerForTheLoad_andPutsItsLevelBack() {
    String name = GpuProbeLogs.PROBE_LOGGERS.get(0);
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    assertNull(logger.getLevel(), "inherited before");

    Runnable undo = GpuProbeLogs.quietJul(name);

    assertEquals(Level.SEVERE, logger.getLevel());
    undo.run();
    assertNull(logger.getLevel(), "inherited again");
  }

  @Test
  void javaUtilLogging_leavesALevelTheHostSet() {
    String name = GpuProbeLogs.PROBE_LOGGERS.get(1);
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    logger.setLevel(Level.FINE);
    try {
      GpuProbeLogs.quietJul(name).run();

      assertEquals(Level.FINE, logger.getLevel());
    } finally {
      logger.setLevel(null);
    }
  }
}
