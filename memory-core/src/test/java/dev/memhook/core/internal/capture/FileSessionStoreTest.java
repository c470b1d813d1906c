package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.hash.Hashing;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code sessions} directory keeps the layout and bytes it had before the SPI. */
class FileSessionStoreTest {

  /** A record as the book wrote it before {@code SessionStore} existed. */
  private static final String OLD_RECORD =
      "{\"id\":\"s1\",\"scope\":\"capture/shop\",\"project\":\"shop\",\"cwd\":\"/work/shop\","
          + "\"startedAt\":\"2026-11-30T10:00:00Z\",\"lastEventAt\":\"2026-11-30T10:00:05Z\","
          + "\"endedAt\":null,\"status\":\"ACTIVE\",\"observationCount\":2,"
          + "\"firstPrompt\":\"I prefer tabs\",\"summary\":null,"
          + "\"lastCapturedAt\":\"2026-11-30T10:00:06Z\"}";

  @TempDir Path dir;

  @Test
  void aRecordWrittenBeforeTheSpi_isReadAndWrittenBackByteForByte() throws Exception {
    Path sessions = dir.resolve("sessions");
    Files.createDirectories(sessions);
    String name = fileName("s1");
    Files.writeString(sessions.resolve(name + ".json"), OLD_RECORD);
    Files.writeString(sessions.resolve(name + ".ids"), "obs-a\nobs-b\nobs-a\ntorn\u0000\n");

    FileSessionStore store = FileSessionStore.open(sessions);
    SessionRecordJson.Stored stored = SessionRecordJson.read(store.loadAll().get(0));
    Session expected =
        new Session(
            "s1",
            new Scope("capture/shop"),
            "shop",
            "/work/shop",
            Instant.parse("2026-11-30T10:00:00Z"),
            Instant.parse("2026-11-30T10:00:05Z"),
            null,
            SessionStatus.ACTIVE,
            2,
            "I prefer tabs",
            null);
    assertEquals(expected, stored.session());
    assertEquals(List.of(MemoryId.of("obs-a"), MemoryId.of("obs-b")), store.observations("s1"));

    store.save("s1", expected.scope(), SessionRecordJson.write(expected, stored.lastCapturedAt()));
    assertEquals(
        OLD_RECORD,
        Files.readString(sessions.resolve(name + ".json"), StandardCharsets.UTF_8),
        "the same bytes in the same file");
    store.appendObservations("s1", List.of(MemoryId.of("obs-c")));
    assertEquals(
        List.of(MemoryId.of("obs-a"), MemoryId.of("obs-b"), MemoryId.of("obs-c")),
        store.observations("s1"));
  }

  @Test
  void aRecordWithAnUnpairedSurrogate_isRefused_andTheOldRecordStays() throws Exception {
    FileSessionStore store = FileSessionStore.open(dir);
    store.save("s1", new Scope("capture"), OLD_RECORD);
    assertThrows(
        IllegalArgumentException.class,
        () -> store.save("s1", new Scope("capture"), "{\"id\":\"s1\ud800\"}"));
    assertEquals(OLD_RECORD, store.load("s1").orElseThrow());
    store.close();
    assertThrows(IllegalStateException.class, () -> store.load("s1"));
  }

  private static String fileName(String sessionId) {
    return Hashing.sha256()
        .hashString(sessionId, StandardCharsets.UTF_8)
        .toString()
        .substring(0, 32);
  }
}
