package dev.memhook.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code bin/memhook} launcher run for real with {@code sh}, against a fake {@code java} that
 * answers {@code --list-modules} as a JDK of a chosen version would and otherwise records the
 * arguments it was started with: which JVM flags the launcher gives each command on which JDK. The
 * launcher is copied beside an empty {@code target/memhook.jar}, so the test needs no built jar.
 * Skipped, saying so, where {@code sh} is missing.
 */
class LauncherScriptTest {

  private static final String ADD_MODULE = "--add-modules";
  private static final String VECTOR_MODULE = "jdk.incubator.vector";

  /**
   * A {@code java} whose {@code --list-modules} prints {@code java.base@$FAKE_JAVA_VERSION} and,
   * when {@code FAKE_VECTOR_MODULE=yes}, the vector module; with {@code FAKE_JAVA_VERSION=8} it
   * rejects the option as Java 8 does. Every probe is counted in {@code $FAKE_PROBES}; any other
   * start writes its arguments, one a line, to {@code $FAKE_ARGS}.
   */
  private static final String FAKE_JAVA =
      """
      #!/bin/sh
      if [ "$1" = --list-modules ]; then
        echo probe >>"$FAKE_PROBES"
        if [ "$FAKE_JAVA_VERSION" = 8 ]; then
          echo "Unrecognized option: --list-modules" >&2
          exit 1
        fi
        echo "java.base@$FAKE_JAVA_VERSION"
        echo "java.sql@$FAKE_JAVA_VERSION"
        if [ "$FAKE_VECTOR_MODULE" = yes ]; then
          echo "jdk.incubator.vector@$FAKE_JAVA_VERSION"
        fi
        exit 0
      fi
      : >"$FAKE_ARGS"
      for arg in "$@"; do
        printf '%s\\n' "$arg" >>"$FAKE_ARGS"
      done
      """;

  @TempDir Path home;

  private Path launcher;

  /** The jar as the launcher names it to java: beside its own directory, not normalised. */
  private String jar;

  @BeforeEach
  void layOut() throws IOException {
    assumeTrue(ScriptTools.onPath("sh"), "no sh on the PATH: the launcher cannot run here");
    Path script = Path.of("bin", "memhook").toAbsolutePath();
    assertTrue(Files.isRegularFile(script), "the launcher is missing: " + script);
    launcher = home.resolve("memory-cli/bin/memhook");
    Files.createDirectories(launcher.getParent());
    Files.copy(script, launcher, StandardCopyOption.COPY_ATTRIBUTES);
    Path jarFile = home.resolve("memory-cli/target/memhook.jar");
    Files.createDirectories(jarFile.getParent());
    Files.createFile(jarFile);
    jar = launcher.getParent() + "/../target/memhook.jar";
    Path java = home.resolve("jdk/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, FAKE_JAVA, UTF_8);
    assertTrue(java.toFile().setExecutable(true), "cannot make the fake java executable");
  }

  @Test
  void serve_onJava25WithTheVectorModule_addsTheModule() throws Exception {
    Launch launch = launch("25.0.3", true, Map.of(), "serve", "--dir", "store");

    assertEquals(
        List.of(
            "-XX:+UseSerialGC", ADD_MODULE, VECTOR_MODULE, "-jar", jar, "serve", "--dir", "store"),
        launch.args());
    assertEquals(1, launch.probes());
  }

  @Test
  void mcp_onJava21_addsTheModule() throws Exception {
    Launch launch = launch("21", true, Map.of(), "mcp", "--dir", "store");

    assertEquals(
        List.of(ADD_MODULE, VECTOR_MODULE, "-jar", jar, "mcp", "--dir", "store"), launch.args());
  }

  @Test
  void serve_onJava17_passesNoVectorFlags() throws Exception {
    Launch launch = launch("17.0.15", true, Map.of(), "serve", "--dir", "store");

    assertEquals(
        List.of("-XX:+UseSerialGC", "-jar", jar, "serve", "--dir", "store"), launch.args());
  }

  @Test
  void serve_onAJavaNewerThanAnyTried_stillAddsTheModule_forLuceneToDecide() throws Exception {
    Launch launch = launch("26.0.1", true, Map.of(), "serve", "--dir", "store");

    assertEquals(
        List.of(
            "-XX:+UseSerialGC", ADD_MODULE, VECTOR_MODULE, "-jar", jar, "serve", "--dir", "store"),
        launch.args());
  }

  @Test
  void serve_onAJdkWithoutTheVectorModule_passesNoVectorFlags() throws Exception {
    Launch launch = launch("25.0.3", false, Map.of(), "serve", "--dir", "store");

    assertEquals(
        List.of("-XX:+UseSerialGC", "-jar", jar, "serve", "--dir", "store"), launch.args());
  }

  @Test
  void serve_onAJavaWithoutListModules_stillStartsWithoutVectorFlags() throws Exception {
    Launch launch = launch("8", true, Map.of(), "serve", "--dir", "store");

    assertEquals(
        List.of("-XX:+UseSerialGC", "-jar", jar, "serve", "--dir", "store"), launch.args());
    assertEquals(1, launch.probes());
  }

  @Test
  void serve_withVectorOff_neitherProbesTheJdkNorPassesVectorFlags() throws Exception {
    Launch launch = launch("25.0.3", true, Map.of("MEMHOOK_VECTOR", "off"), "serve");

    assertEquals(List.of("-XX:+UseSerialGC", "-jar", jar, "serve"), launch.args());
    assertEquals(0, launch.probes());
  }

  @Test
  void hook_onJava25_neitherProbesTheJdkNorPassesVectorFlags() throws Exception {
    Launch launch = launch("25.0.3", true, Map.of(), "hook", "--dir", "store");

    assertEquals(
        List.of(
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar, "hook", "--dir", "store"),
        launch.args());
    assertEquals(0, launch.probes());
  }

  @Test
  void vectorFlags_comeBeforeTheUsersOwnJavaOptions() throws Exception {
    Launch launch =
        launch("24", true, Map.of("MEMHOOK_JAVA_OPTS", "-Xmx512m"), "mcp", "--dir", "store");

    assertEquals(
        List.of(ADD_MODULE, VECTOR_MODULE, "-Xmx512m", "-jar", jar, "mcp", "--dir", "store"),
        launch.args());
  }

  /** What one launch passed to java, and how many times the launcher probed the JDK. */
  private record Launch(List<String> args, int probes) {}

  private Launch launch(
      String javaVersion, boolean vectorModule, Map<String, String> env, String... command)
      throws Exception {
    Path args = home.resolve("args");
    Path probes = home.resolve("probes");
    Files.deleteIfExists(args);
    Files.deleteIfExists(probes);
    List<String> line = new ArrayList<>(List.of("sh", launcher.toString()));
    line.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.remove("MEMHOOK_JAVA_OPTS");
    environment.remove("MEMHOOK_VECTOR");
    environment.put("HOME", home.toString());
    environment.remove("XDG_CACHE_HOME");
    environment.put("JAVA", home.resolve("jdk/bin/java").toString());
    environment.put("FAKE_JAVA_VERSION", javaVersion);
    environment.put("FAKE_VECTOR_MODULE", vectorModule ? "yes" : "no");
    environment.put("FAKE_ARGS", args.toString());
    environment.put("FAKE_PROBES", probes.toString());
    environment.putAll(env);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher did not finish");
    assertEquals(0, process.exitValue(), "the launcher failed: " + output);
    assertEquals("", output, "the launcher printed something");
    int probeCount = Files.exists(probes) ? Files.readAllLines(probes, UTF_8).size() : 0;
    return new Launch(Files.readAllLines(args, UTF_8), probeCount);
  }
}
