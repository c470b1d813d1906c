package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Memhook.Builder}: setters only record, set-once, and what a (failed) build owns. */
class MemhookBuilderTest {

  @Test
  void directory_touchesNothingBeforeBuild(@TempDir Path tmp) {
    Path dir = tmp.resolve("memory");
    Memhook.Builder builder = Memhook.builder().directory(dir).embedder(HashingEmbedder.create());
    assertFalse(Files.exists(dir), "the setter must not create the directory");
    try (MemoryService memory = builder.build()) {
      assertTrue(Files.isDirectory(dir), memory + " opened no directory");
    }
  }

  @Test
  void aFailedBuild_releasesTheDirectoryLock_soARetryInTheSameJvmOpensIt(@TempDir Path dir) {
    Memory kept;
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      kept = memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
    }
    // another vector space: the store opens, then refuses the embedder
    assertThrows(
        IncompatibleStoreException.class,
        () -> Memhook.builder().directory(dir).embedder(HashingEmbedder.withDimension(64)).build());
    // a setter called twice fails before anything is opened
    Memhook.Builder twice = Memhook.builder().directory(dir);
    assertThrows(
        IllegalStateException.class,
        () -> twice.embedder(HashingEmbedder.create()).embedder(HashingEmbedder.create()));
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      assertEquals(kept, memory.get(kept.id()).orElseThrow());
    }
  }

  @Test
  void aFailedBuild_leavesWhatTheHostPassedIn_openAndTheHosts() {
    try (LuceneMemoryStore store = LuceneMemoryStore.inMemory()) {
      try (MemoryService first =
          Memhook.builder().store(unclosable(store)).embedder(HashingEmbedder.create()).build()) {
        first.remember(MemoryDraft.of(Scope.DEFAULT, "recorded in the 256-dimension space"));
      }
      assertThrows(
          IncompatibleStoreException.class,
          () -> Memhook.builder().store(store).embedder(HashingEmbedder.withDimension(64)).build());
      assertEquals(
          1, store.count(Scope.DEFAULT), "the host's store is still open after the failed build");
    }
  }

  @Test
  void theService_closesTheStoreAndEmbedderItWasGiven_butNotTheExecutor() {
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      MemoryService memory =
          Memhook.builder()
              .store(store)
              .embedder(HashingEmbedder.create())
              .executor(executor)
              .build();
      memory.close();
      assertThrows(
          IllegalStateException.class,
          () -> store.count(Scope.DEFAULT),
          "the service closed the store");
      assertFalse(executor.isShutdown(), "the host's executor is the host's");
    } finally {
      executor.shutdownNow();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"store", "embedder", "recallOptions", "executor", "clock", "redaction"})
  void eachSetter_mayBeCalledOnce(String setter) {
    UnaryOperator<Memhook.Builder> set =
        switch (setter) {
          case "store" -> b -> b.inMemory();
          case "embedder" -> b -> b.embedder(HashingEmbedder.create());
          case "recallOptions" -> b -> b.recallOptions(RecallOptions.defaults());
          case "executor" -> b -> b.executor(Runnable::run);
          case "clock" -> b -> b.clock(Clock.systemUTC());
          case "redaction" -> b -> b.redaction(Redaction.defaults());
          default -> throw new IllegalArgumentException(setter);
        };
    Memhook.Builder builder = set.apply(Memhook.builder());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> set.apply(builder));
    assertTrue(e.getMessage().contains("already"), e.getMessage());
  }

  @Test
  void choosingWhereMemoriesLiveTwice_namesTheFirstChoice(@TempDir Path dir) {
    Memhook.Builder builder = Memhook.builder().directory(dir);
    IllegalStateException e = assertThrows(IllegalStateException.class, builder::inMemory);
    assertTrue(e.getMessage().contains("directory(" + dir + ")"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> builder.store(LuceneMemoryStore.inMemory()));
  }

  @Test
  void aBuilder_buildsOneService() {
    Memhook.Builder builder = Memhook.builder().inMemory().embedder(HashingEmbedder.create());
    try (MemoryService memory = builder.build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);
      assertTrue(e.getMessage().contains("already built"), e.getMessage());
      assertTrue(
          memory.maintenance().forgotten(Scope.DEFAULT).isEmpty(),
          "the first service is still open");
    }
  }

  @Test
  void buildWithoutAStore_namesTheThreeWays() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> Memhook.builder().build());
    assertTrue(
        e.getMessage().contains("directory(path), store(...) or inMemory()"), e.getMessage());
  }

  private static MemoryStore unclosable(MemoryStore store) {
    return new dev.memhook.testkit.ForwardingMemoryStore(store) {
      @Override
      public void close() {
        // the test closes the real store
      }
    };
  }
}
