package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.ScopedMemory;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A scoped view cannot reach another scope through any of its methods, for the scope pairs that
 * look alike ({@code acme}, {@code acme/alice}, {@code ACME}, {@code acme.}) and for generated
 * ones.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScopedMemoryTest {

  private MemoryService memory;

  @BeforeAll
  void open() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }

  @AfterAll
  void close() {
    memory.close();
  }

  static Stream<Arguments> scopePairs() {
    List<String> lookalikes = List.of("acme", "acme/alice", "ACME", "acme.", "acme/alice/x");
    List<Arguments> pairs = new ArrayList<>();
    for (String a : lookalikes) {
      for (String b : lookalikes) {
        if (!a.equals(b)) {
          pairs.add(Arguments.of(new Scope(a), new Scope(b)));
        }
      }
    }
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String alphabet = "aAbB.-_@+0";
    for (int i = 0; i < 20; i++) {
      String base = randomSegment(random, alphabet);
      String other =
          switch (random.nextInt(4)) {
            case 0 -> base + "/" + randomSegment(random, alphabet);
            case 1 ->
                base.toUpperCase(java.util.Locale.ROOT).equals(base)
                    ? base + "."
                    : base.toUpperCase(java.util.Locale.ROOT);
            case 2 -> base + ".";
            default -> randomSegment(random, alphabet);
          };
      if (!other.equals(base)) {
        pairs.add(Arguments.of(new Scope(base), new Scope(other)));
      }
    }
    return pairs.stream();
  }

  private static String randomSegment(Random random, String alphabet) {
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @ParameterizedTest
  @MethodSource("scopePairs")
  void rememberAll_ofAViewRefusesADraftOfAnotherScope_namingIt_beforeStoringAny(Scope a, Scope b) {
    ScopedMemory view = memory.scoped(a);
    List<MemoryDraft> drafts =
        List.of(
            MemoryDraft.of(a, "first import note " + a),
            MemoryDraft.of(b, "a note of the other scope " + b),
            MemoryDraft.of(a, "third import note " + a));
    int before = memory.recall(new RecallQuery(a, "import note", 50)).memories().size();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> view.rememberAll(drafts, p -> {}));
    assertTrue(e.getMessage().startsWith("drafts[1]: "), e.getMessage());
    assertEquals(before, memory.recall(new RecallQuery(a, "import note", 50)).memories().size());
    List<Memory> stored = view.rememberAll(List.of(drafts.get(0), drafts.get(2)), p -> {});
    assertEquals(List.of(a, a), stored.stream().map(Memory::scope).toList());
  }

  @ParameterizedTest(name = "{0} cannot reach {1}")
  @MethodSource("scopePairs")
  void aViewOfOneScope_cannotReadChangeOrForgetAMemoryOfAnother(Scope mine, Scope theirs) {
    String token = "zebra" + Long.toHexString(System.nanoTime());
    Memory theirMemory =
        memory.remember(MemoryDraft.of(theirs, "The deploy window of " + token + " is Friday."));
    ScopedMemory view = memory.scoped(mine);
    MemoryId id = theirMemory.id();

    assertTrue(view.get(id).isEmpty(), "get");
    IllegalArgumentException update =
        assertThrows(
            IllegalArgumentException.class,
            () -> view.update(id, MemoryDraft.of(mine, "overwritten")));
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> view.update(MemoryId.random(), MemoryDraft.of(mine, "overwritten")));
    assertEquals(
        unknown.getMessage().replace(unknownId(unknown), ""),
        update.getMessage().replace(id.value(), ""),
        "another scope reads like an unknown id");
    assertFalse(view.forget(id, "tenant", "try"), "forget");
    assertTrue(
        view.recall(RecallQuery.of(mine, "deploy window " + token)).memories().stream()
            .map(RecalledMemory::memory)
            .noneMatch(m -> m.id().equals(id)),
        "recall");
    assertThrows(
        IllegalArgumentException.class,
        () -> view.recall(RecallQuery.of(theirs, "deploy window " + token)),
        "a query naming another scope");
    assertThrows(
        IllegalArgumentException.class,
        () -> view.remember(MemoryDraft.of(theirs, "planted")),
        "a draft naming another scope");

    // untouched, and its own scope's view reaches it
    assertEquals(theirMemory, memory.get(id).orElseThrow());
    ScopedMemory owner = memory.scoped(theirs);
    assertEquals(theirMemory, owner.get(id).orElseThrow());
    Memory next =
        owner.update(id, MemoryDraft.of(theirs, "The deploy window of " + token + " is Monday."));
    assertEquals(theirs, next.scope());
    assertTrue(owner.forget(next.id(), "owner", "done"));
    assertTrue(memory.get(id).isEmpty(), "forgetting follows the versions");
    assertTrue(owner.forgotten().stream().anyMatch(r -> r.id().equals(id)), "audited in its scope");
    assertTrue(view.forgotten().stream().noneMatch(r -> r.id().equals(id)), "not in another");
  }

  private static String unknownId(IllegalArgumentException e) {
    String m = e.getMessage();
    return m.substring(m.lastIndexOf(' ') + 1);
  }
}
