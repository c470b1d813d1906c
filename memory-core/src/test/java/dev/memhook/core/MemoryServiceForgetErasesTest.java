package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.lucene.IndexFiles;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forget erases every version: a memory updated twice and forgotten through the service leaves no
 * version's text in any file of the service's directory (the index and the capture journal beside
 * it), neither as bytes nor as index terms, and reopening brings none of it back.
 */
class MemoryServiceForgetErasesTest {
  @TempDir Path dir;

  private static final Scope SCOPE = Scope.of("acme", "alice");

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  @Test
  void forget_ofAMemoryWithOlderVersions_leavesNoVersionsTextInAnyFile_alsoAfterReopening()
      throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<String> tokens =
        List.of(
            IndexFiles.uniqueToken(random),
            IndexFiles.uniqueToken(random),
            IndexFiles.uniqueToken(random));
    List<Memory> versions;
    try (MemoryService memory = open()) {
      for (int i = 0; i < 20; i++) {
        memory.remember(
            MemoryDraft.of(SCOPE, "the build of service " + i + " runs on runner " + i));
      }
      Memory v1 = memory.remember(MemoryDraft.of(SCOPE, text(tokens.get(0))));
      Memory v2 = memory.update(v1.id(), MemoryDraft.of(SCOPE, text(tokens.get(1))));
      Memory v3 = memory.update(v2.id(), MemoryDraft.of(SCOPE, text(tokens.get(2))));
      versions = List.of(v1, v2, v3);
      for (int i = 0; i < versions.size(); i++) {
        Memory stored = memory.get(versions.get(i).id()).orElseThrow();
        assertTrue(stored.content().contains(tokens.get(i)), "stored as given: " + stored);
        assertFalse(
            IndexFiles.filesContaining(dir, tokens.get(i)).isEmpty(),
            "version " + (i + 1) + " is on disk before the forget; " + Seeds.replay(seed));
      }

      assertTrue(memory.forget(v3.id(), "alice", "held a private host name"));

      // at return: no version's record is readable in any file (the journal's copies are gone,
      // the index's are sealed with destroyed keys); the index's terms wait for the purge
      for (String token : tokens) {
        assertEquals(
            List.of(),
            IndexFiles.filesContaining(dir, text(token)),
            "files holding a version's text after the forget; " + Seeds.replay(seed));
      }
      memory.maintenance().purge();
      assertErased(tokens, seed, "after the purge");
      for (Memory v : versions) {
        assertTrue(memory.get(v.id()).isEmpty(), v.id() + " is forgotten");
      }
      assertEquals(20, memory.maintenance().count(SCOPE), "the other memories are kept");
      assertEquals(3, memory.maintenance().forgotten(SCOPE).size(), "an audit record per version");
    }
    assertErased(tokens, seed, "after close");
    try (MemoryService memory = open()) {
      for (Memory v : versions) {
        assertTrue(memory.get(v.id()).isEmpty(), v.id() + " stays forgotten");
      }
      assertEquals(20, memory.maintenance().count(SCOPE));
    }
    assertErased(tokens, seed, "after reopening");
  }

  /**
   * A version's text: its token in the content, and so in the title and summary derived from it.
   */
  private static String text(String token) {
    return "the staging database moved to host " + token + " in the second rack";
  }

  private void assertErased(List<String> tokens, long seed, String when) throws IOException {
    for (String token : tokens) {
      assertEquals(
          List.of(),
          IndexFiles.filesContaining(dir, token),
          "files holding " + token + " " + when + "; " + Seeds.replay(seed));
      assertEquals(
          new TreeSet<String>(),
          IndexFiles.termsContaining(dir, IndexFiles.termPrefix(token)),
          "terms holding " + token + " " + when + "; " + Seeds.replay(seed));
    }
  }
}
