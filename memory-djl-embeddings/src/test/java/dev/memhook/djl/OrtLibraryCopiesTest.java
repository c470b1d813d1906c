package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ONNX Runtime's copies of its libraries in the temporary directory are deleted once loaded, and
 * nothing else is: a process that loaded the model leaves nothing there (neither the copies nor
 * DJL's empty model directory), even when it is killed.
 */
class OrtLibraryCopiesTest {

  @TempDir Path tmp;

  @Test
  void aDirectoryHoldingOnlyTheTwoLibraries_isDeletedWithThem() throws IOException {
    Path dir = bindingDirectory("onnxruntime-java123");

    assertTrue(OrtLibraryCopies.remove(dir));

    assertFalse(Files.exists(dir));
  }

  @Test
  void aDirectoryHoldingAProviderLibraryBesideThem_isLeftWhole() throws IOException {
    Path dir = bindingDirectory("onnxruntime-java456");
    Files.write(dir.resolve(System.mapLibraryName("onnxruntime_providers_cuda")), new byte[] {3});

    assertFalse(OrtLibraryCopies.remove(dir));

    assertEquals(3, entries(dir).size(), "every file is still there");
  }

  @Test
  void aDirectoryNotNamedAsTheBindingNamesIt_isLeftAlone() throws IOException {
    Path dir = bindingDirectory("native-libs");

    assertFalse(OrtLibraryCopies.remove(dir));

    assertEquals(2, entries(dir).size());
  }

  @Test
  void aSubdirectoryNamedAsALibrary_keepsTheDirectory() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("onnxruntime-java789"));
    Files.createDirectory(dir.resolve(System.mapLibraryName("onnxruntime")));

    assertFalse(OrtLibraryCopies.remove(dir));

    assertTrue(Files.isDirectory(dir.resolve(System.mapLibraryName("onnxruntime"))));
  }

  @Test
  void aLinkNamedAsTheBindingsDirectory_isNotFollowed() throws IOException {
    Path target = bindingDirectory("elsewhere");
    Path link = Files.createSymbolicLink(tmp.resolve("onnxruntime-java1"), target);

    assertFalse(OrtLibraryCopies.remove(link));

    assertTrue(Files.exists(link), "the link is still there");
    assertEquals(2, entries(target).size(), "and what it points to");
  }

  @Test
  void aDirectoryAlreadyGone_countsAsRemoved() {
    assertTrue(OrtLibraryCopies.remove(tmp.resolve("onnxruntime-java2")));
  }

  /**
   * The child: loads the bundled model with {@code java.io.tmpdir} set to the test's directory,
   * embeds one text, says so, and waits to be killed.
   */
  static final class LoadAndWait {
    public static void main(String[] args) throws InterruptedException {
      DjlEmbedder embedder = DjlEmbedder.bundledMiniLm();
      Embedding v = embedder.embed("the cat sits on the mat");
      System.out.println("loaded " + v.dimension());
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
  }

  @Test
  void aProcessThatLoadedTheModel_leavesNothingInTheTemporaryDirectory_evenWhenKilled()
      throws Exception {
    Path childTmp = Files.createDirectory(tmp.resolve("child-tmp"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-Dai.djl.offline=true");
    command.add("-Djava.io.tmpdir=" + childTmp);
    command.add(LoadAndWait.class.getName());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      List<String> output = new ArrayList<>();
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          output.add(line);
          if (line.startsWith("loaded ")) {
            break;
          }
        }
      }
      assertTrue(output.contains("loaded 384"), "the child loaded the model: " + output);
      assertEquals(List.of(), names(childTmp), "while it runs, after the load");

      child.destroyForcibly(); // SIGKILL: no shutdown hook, no deletion at exit
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));

      assertEquals(List.of(), names(childTmp), "after it was killed");
    } finally {
      child.destroyForcibly();
    }
  }

  /** A directory named {@code name} holding the two library files the binding copies. */
  private Path bindingDirectory(String name) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve(name));
    for (String library : OrtLibraryCopies.LIBRARIES) {
      Files.write(dir.resolve(library), new byte[] {1, 2});
    }
    return dir;
  }

  private static List<Path> entries(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  /**
   * What {@code dir} holds: the binding's library copies and the empty model directory DJL's engine
   * makes for a model loaded from a stream would show here, as would anything else left behind.
   */
  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
