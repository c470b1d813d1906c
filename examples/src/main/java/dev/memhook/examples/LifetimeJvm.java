package dev.memhook.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One lifetime of the demo in a JVM of its own, as a host that runs one conversation per process
 * lives: the java and class path of this JVM, its DJL offline setting, and the model chosen through
 * the environment ({@link DemoModel#environment}). What the lifetime prints on standard output is
 * printed to the demo's output line by line as it comes (it writes UTF-8); its standard error is
 * this JVM's.
 *
 * <p>Stateless; each {@link #run} starts a process and waits for it.
 */
final class LifetimeJvm {

  /** The system property that keeps DJL from the network; passed on when this JVM has it. */
  private static final String DJL_OFFLINE = "ai.djl.offline";

  private LifetimeJvm() {}

  /**
   * Runs {@code Demo --lifetime <number> <arguments…>} in a new JVM and waits for it to end.
   *
   * @throws Demo.DemoFailure if it ends with another exit code than 0
   */
  static void run(int number, List<String> arguments, DemoModel model, PrintStream out)
      throws IOException, InterruptedException {
    Objects.requireNonNull(model, "model");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String offline = System.getProperty(DJL_OFFLINE);
    if (offline != null) {
      command.add("-D" + DJL_OFFLINE + "=" + offline);
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Demo.class.getName());
    command.add(Demo.LIFETIME);
    command.add(Integer.toString(number));
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    model.environment(builder.environment());
    Process process = builder.start();
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        out.println(line);
      }
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    int code = process.waitFor();
    if (code != 0) {
      throw new Demo.DemoFailure(
          "lifetime " + number + " ended with exit code " + code + " (see its message above)");
    }
  }
}
