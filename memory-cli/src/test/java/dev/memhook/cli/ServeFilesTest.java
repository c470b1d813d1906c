package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token and serve.json: owner-only, kept or rotated, and stale files recognised. */
class ServeFilesTest {
  @TempDir Path dir;

  @Test
  void theToken_isMadeOnce_ownerOnly_keptAcrossStarts_andReplacedOnlyWhenRotated()
      throws Exception {
    ServeFiles files = new ServeFiles(dir);
    String first = files.token(false);
    assertTrue(first.matches("[0-9a-f]{64}"), first);
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve(ServeFiles.TOKEN_FILE))));
    assertEquals(first, new ServeFiles(dir).token(false));
    String rotated = files.token(true);
    assertNotEquals(first, rotated);
    assertEquals(rotated, files.token(false));
    try (var left = Files.list(dir)) {
      assertEquals(1, left.count(), "no temporary file is left");
    }
  }

  @Test
  void serveJson_namesALiveServer_andIsIgnoredWhenItsPidIsDeadOrStartedAfterIt() throws Exception {
    ServeFiles files = new ServeFiles(dir);
    assertTrue(files.running().isEmpty(), "no file");
    Path file = dir.resolve(ServeFiles.RUNNING_FILE);

    Process server = new ProcessBuilder("sleep", "60").start();
    try {
      files.announce(new ServeFiles.Running(server.pid(), 7373, "ab".repeat(32), "test"));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(
          new ServeFiles.Running(server.pid(), 7373, "ab".repeat(32), "test"),
          files.running().orElseThrow(),
          "a live process started before the file was written");

      // as if the file had been left an hour ago by a server whose pid this process took since
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
      assertTrue(files.running().isEmpty(), "a process started after the file is no server");
    } finally {
      server.destroyForcibly();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    files.announce(new ServeFiles.Running(server.pid(), 7373, "ab".repeat(32), "test"));
    assertTrue(files.running().isEmpty(), "a dead pid is no server");

    files.announce(
        new ServeFiles.Running(ProcessHandle.current().pid(), 7375, "ef".repeat(32), "test"));
    files.withdraw();
    assertFalse(Files.exists(file), "withdrawn by its own pid");
  }
}
