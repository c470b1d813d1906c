package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memhook list} and {@code memhook forget} as a user runs them, a JVM each, while a real
 * {@code memhook serve} holds the store: they run in the server, and the client's JVM loads no
 * class of the store, the model, picocli or Jackson.
 */
class ServedCliProcessTest {
  /** Packages whose classes a served command must not load in the client. */
  private static final List<String> HEAVY =
      List.of(
          "org.apache.lucene.",
          "ai.djl.",
          "picocli.",
          "com.fasterxml.",
          "dev.memhook.core.",
          "dev.memhook.lucene.");

  @TempDir Path dir;
  @TempDir Path logs;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void servedCommands_runInTheServer_andTheClientLoadsNoStoreModelOrParserClass() throws Exception {
    TestStore.Seeded seeded = TestStore.seed(dir);
    Process server = serve();
    awaitRunning(server);

    Result list = client("list", "--scope", "acme/alice");
    Result forget = client("forget", "--yes", seeded.tabs().id().value());

    assertEquals(0, list.code(), list.err());
    assertTrue(list.out().contains(seeded.tabs().id().value()), list.out());
    assertTrue(list.out().contains(seeded.timeoutV2().id().value()), list.out());
    assertEquals("2 of 2 matching memories\n", list.err());
    // a forget in another process would find the store locked: only the server could do it
    assertEquals(0, forget.code(), forget.err());
    assertEquals("forgotten " + seeded.tabs().id().value() + "\n", forget.out());
    for (Result r : List.of(list, forget)) {
      List<String> heavy =
          r.classes().stream().filter(c -> HEAVY.stream().anyMatch(c::startsWith)).toList();
      assertTrue(heavy.isEmpty(), "the client loaded " + heavy);
      assertTrue(r.classes().contains("dev.memhook.cli.RemoteCli"), "the log holds the classes");
    }
    Result after = client("list", "--scope", "acme/alice");
    assertFalse(after.out().contains(seeded.tabs().id().value()), after.out());
  }

  /** What a client process printed and returned, and the classes it loaded. */
  private record Result(int code, String out, String err, List<String> classes) {}

  private Result client(String... args) throws Exception {
    int n = started.size();
    Path out = logs.resolve("client-" + n + ".out");
    Path err = logs.resolve("client-" + n + ".err");
    Path classes = logs.resolve("client-" + n + ".classes");
    List<String> command = new ArrayList<>(java());
    command.add(1, "-Xlog:class+load=info:file=" + classes);
    command.addAll(List.of(args));
    command.addAll(List.of("--dir", dir.toString()));
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    started.add(p);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the client did not exit");
    List<String> loaded = new ArrayList<>();
    for (String line : Files.readAllLines(classes, StandardCharsets.UTF_8)) {
      // [0.012s][info][class,load] java.lang.Object source: shared objects file
      int start = line.indexOf("] ", line.indexOf("[class,load]"));
      if (start > 0) {
        loaded.add(line.substring(start + 2).split(" ", 2)[0]);
      }
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err), loaded);
  }

  private Process serve() throws IOException {
    List<String> command = new ArrayList<>(java());
    command.addAll(List.of("serve", "--dir", dir.toString(), "--port", "0"));
    command.addAll(List.of("--embedder", "hashing"));
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(logs.resolve("serve.err").toFile())
            .start();
    started.add(p);
    return p;
  }

  private static List<String> java() {
    return new ArrayList<>(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            MemhookCli.class.getName()));
  }

  private void awaitRunning(Process p) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new AssertionError(
            "the server exited: " + Files.readString(logs.resolve("serve.err")));
      }
      if (new ServeFiles(dir).running().map(r -> r.pid() == p.pid()).orElse(false)) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the server did not write serve.json in 90 s");
  }
}
