package dev.memhook.core.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.lucene.IndexFiles;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's write-ahead log: what a write puts in the journal, what replay makes of it on a store
 * that holds none, some or all of it, and that a forget leaves no copy of the text in the journal's
 * files. A "crash" here is a journal abandoned without a checkpoint, replayed into a fresh store.
 */
class LoggedStoreTest {

  private static final Scope SCOPE = Scope.of("wal");
  private static final Instant T = Instant.parse("2026-11-30T10:15:30.123456789Z");
  private final HashingEmbedder embedder = HashingEmbedder.create();

  @TempDir Path dir;

  private static Memory memory(String id, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(SCOPE)
        .content(content)
        .occurredAt(T)
        .createdAt(T)
        .build();
  }

  private Embedding embed(Memory m) {
    return embedder.embed(m.content());
  }

  private LuceneMemoryStore freshStore() {
    LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().build();
    store.attach(embedder.space());
    return store;
  }

  /** A fresh store that keeps passages, attached. */
  private PassageKeepingStore freshPassageStore() {
    PassageKeepingStore store = PassageKeepingStore.inMemory();
    store.attach(embedder.space());
    return store;
  }

  /** A logged store over {@code store}, fresh, and the journal in {@code dir}. */
  private LoggedStore open(MemoryStore store) {
    // no checkpoint but the ones a test makes: an abandoned journal then holds every write
    LoggedStore logged =
        LoggedStore.open(store, new JournalCursor(Journal.open(dir)), Duration.ofDays(1));
    logged.attach(embedder.space());
    logged.replay();
    return logged;
  }

  @Test
  void everyWrite_isReplayedIntoAStoreThatLostIt() {
    Memory a = memory("mem_a", "the deploy uses blue green");
    Memory b = memory("mem_b", "rollback after migration 0042 failed");
    Memory c = memory("mem_c", "tests run with gradle");
    Memory a2 =
        a.toBuilder().id(MemoryId.of("mem_a2")).version(2).supersedes(a.id()).content("v2").build();
    LoggedStore logged = open(freshStore());
    logged.put(a, embed(a));
    logged.putAll(Map.of(b, embed(b), c, embed(c)));
    logged.putNewVersion(a2, embed(a2));
    logged.abandon(); // the store is never committed: only the journal has the writes

    try (LoggedStore reopened = open(freshStore())) {
      assertFalse(reopened.get(a.id()).orElseThrow().latest(), "superseded by the new version");
      assertTrue(reopened.get(a2.id()).orElseThrow().latest());
      assertEquals(b.content(), reopened.get(b.id()).orElseThrow().content());
      assertEquals(3, reopened.count(SCOPE));
      assertEquals(b.id(), reopened.searchVector(SCOPE, embed(b), 1).get(0).id());
    }
  }

  @Test
  void aLoggedForget_isReplayed_andReplayedAgainForgetsNothingMore() {
    Memory c = memory("mem_c", "tests run with gradle");
    ForgetRecord audit = new ForgetRecord(c.id(), SCOPE, "test", "gone", T);
    try (Journal journal = Journal.open(dir)) {
      journal.append(
          StoreRecords.KIND_PUT,
          StoreRecords.put(1, 0, 1, List.of(StoreRecords.entry(c, embed(c), List.of()))));
      journal.append(StoreRecords.KIND_FORGET, StoreRecords.forget(List.of(audit)));
    }
    LuceneMemoryStore store = freshStore();
    assertEquals(2, StoreReplay.apply(Journal.inMemory(), store) + 2, "nothing in memory");
    try (Journal journal = Journal.open(dir)) {
      assertEquals(2, StoreReplay.apply(journal, store));
      assertEquals(2, StoreReplay.apply(journal, store), "idempotent");
    }
    assertTrue(store.get(c.id()).isEmpty());
    assertEquals(List.of(audit), store.forgotten(SCOPE));
    store.close();
  }

  @Test
  void aLoggedForgetOfSeveralIds_isReplayedWithTheIdsEachRecordLists() {
    Memory c = memory("mem_c", "tests run with gradle");
    Memory d = memory("mem_d", "the gradle daemon is off on ci");
    Memory e = memory("mem_e", "ci caches the gradle home");
    List<MemoryId> together = List.of(c.id(), d.id());
    ForgetRecord forC = new ForgetRecord(c.id(), SCOPE, "test", "gone", T, together);
    ForgetRecord forD = new ForgetRecord(d.id(), SCOPE, "test", "gone", T, together);
    ForgetRecord forE = new ForgetRecord(e.id(), SCOPE, "test", "alone", T.plusSeconds(1));
    try (Journal journal = Journal.open(dir)) {
      journal.append(
          StoreRecords.KIND_PUT,
          StoreRecords.put(
              1,
              0,
              1,
              List.of(
                  StoreRecords.entry(c, embed(c), List.of()),
                  StoreRecords.entry(d, embed(d), List.of()),
                  StoreRecords.entry(e, embed(e), List.of()))));
      journal.append(StoreRecords.KIND_FORGET, StoreRecords.forget(List.of(forC, forD, forE)));
    }
    LuceneMemoryStore store = freshStore();
    try (Journal journal = Journal.open(dir)) {
      assertEquals(2, StoreReplay.apply(journal, store));
    }
    assertEquals(0, store.count(SCOPE));
    assertEquals(List.of(forC, forD, forE), store.forgotten(SCOPE));
    assertEquals(together, store.forgotten(SCOPE).get(1).removed());
    assertEquals(List.of(e.id()), store.forgotten(SCOPE).get(2).removed());
    store.close();
  }

  @Test
  void aForgetLoggedBeforeRecordsListedTheirIds_isStillRead_eachRecordListingItsOwnId()
      throws IOException {
    // format 1: a count, then per record id, scope, actor, reason, seconds and nanos
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeInt(2);
      for (String id : List.of("mem_old1", "mem_old2")) {
        for (String text : List.of(id, SCOPE.value(), "ops", "before the upgrade")) {
          byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
          out.writeInt(b.length);
          out.write(b);
        }
        out.writeLong(T.getEpochSecond());
        out.writeInt(T.getNano());
      }
    }
    assertEquals(
        List.of(
            new ForgetRecord(MemoryId.of("mem_old1"), SCOPE, "ops", "before the upgrade", T),
            new ForgetRecord(MemoryId.of("mem_old2"), SCOPE, "ops", "before the upgrade", T)),
        StoreRecords.readForget(bytes.toByteArray()));
  }

  @Test
  void replayOnAStoreThatHoldsTheLaterVersion_leavesOneLatestVersion() {
    Memory a = memory("mem_a", "first");
    Memory a2 =
        a.toBuilder().id(MemoryId.of("mem_a2")).version(2).supersedes(a.id()).content("v2").build();
    LoggedStore logged = open(freshStore());
    logged.put(a, embed(a));
    logged.putNewVersion(a2, embed(a2));
    logged.abandon();
    // the store committed both writes on its own before the crash, the journal's checkpoint not
    LuceneMemoryStore ahead = freshStore();
    ahead.put(a, embed(a));
    ahead.putNewVersion(a2, embed(a2));
    try (LoggedStore reopened = open(ahead)) {
      assertFalse(reopened.get(a.id()).orElseThrow().latest(), "the put is not replayed over it");
      assertTrue(reopened.get(a2.id()).orElseThrow().latest());
      assertEquals(1, reopened.count(SCOPE));
    }
  }

  @Test
  void aBatchWhosePartsAreNotAllLogged_isNotApplied() throws IOException {
    Memory a = memory("mem_a", "one part of two");
    try (Journal journal = Journal.open(dir)) {
      journal.append(
          StoreRecords.KIND_PUT,
          StoreRecords.put(7, 0, 2, List.of(StoreRecords.entry(a, embed(a), List.of()))));
      journal.append(StoreRecords.KIND_PUT, new byte[] {StoreRecords.PUT_FORMAT, 1, 2}); // damaged
    }
    try (LoggedStore reopened = open(freshStore())) {
      assertTrue(reopened.get(a.id()).isEmpty());
      assertEquals(0, reopened.count(SCOPE));
    }
  }

  @Test
  void aBatchLargerThanOneRecord_isSplitAndReplayedWhole() {
    String big = "x".repeat(90_000);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < 200; i++) {
      Memory m = memory("mem_" + i, "item " + i + " " + big);
      batch.put(m, embed(m));
    }
    LoggedStore logged = open(freshStore());
    logged.putAll(batch);
    long records = logged.journalForTests().lastSequence();
    logged.abandon();
    assertTrue(records >= 2, "18 MB in one record: " + records);
    try (LoggedStore reopened = open(freshStore())) {
      assertEquals(200, reopened.count(SCOPE));
    }
  }

  @Test
  void afterAForget_noJournalFileHoldsTheForgottenText() throws IOException {
    Memory secret = memory("mem_s", "the vault unseal phrase is quokka-lantern-42");
    Memory other = memory("mem_o", "an ordinary memory");
    try (LoggedStore logged = open(freshStore())) {
      logged.put(secret, embed(secret));
      logged.put(other, embed(other));
      assertTrue(journalHolds("quokka-lantern-42"), "the put is in the journal");
      assertTrue(logged.delete(secret.id(), new ForgetRecord(secret.id(), SCOPE, "t", "r", T)));
      assertFalse(journalHolds("quokka-lantern-42"), "erased from the journal");
      logged.put(memory("mem_n", "after the forget"), embed(other));
    }
  }

  @Test
  void aWriteTheStoreRefuses_isRefusedAndNotReplayed() {
    Memory a = memory("mem_a", "a vector of the wrong dimension");
    LoggedStore logged = open(freshStore());
    assertThrows(IllegalArgumentException.class, () -> logged.put(a, Embedding.of(1f, 0f)));
    logged.abandon();
    try (LoggedStore reopened = open(freshStore())) {
      assertTrue(reopened.get(a.id()).isEmpty());
    }
  }

  @Test
  void recordsRoundTrip_everyField() {
    Memory full =
        Memory.builder()
            .id(MemoryId.of("mem_full"))
            .type(MemoryType.ARCHITECTURE)
            .title("标题 title")
            .summary("summary ✓")
            .content("content with\nnewlines and 中文")
            .context("the turn before")
            .concepts(List.of("deploy", "ci"))
            .files(List.of("src/Auth.java"))
            .scope(Scope.of("p", "u"))
            .sourceSession("s-1")
            .origin(Origin.tool("Bash"))
            .attributes(Map.of("k", "v", "k2", ""))
            .importance(0.25)
            .version(3)
            .supersedes(MemoryId.of("mem_prev"))
            .latest(false)
            .occurredAt(T)
            .createdAt(T.plusSeconds(1))
            .sourcePins(List.of(new SourcePin("a/b.txt", "sha256:00")))
            .build();
    Embedding e = Embedding.of(0.5f, -0.25f, Float.MIN_VALUE);
    StoreRecords.NewVersion read =
        StoreRecords.readNewVersion(StoreRecords.newVersion(full, e, List.of()));
    assertEquals(full, read.next());
    assertEquals(e, read.embedding());
    ForgetRecord r = new ForgetRecord(full.id(), full.scope(), "actor", "reason", T);
    assertEquals(List.of(r), StoreRecords.readForget(StoreRecords.forget(List.of(r))));
    List<MemoryId> two = List.of(full.id(), MemoryId.of("mem_other"));
    ForgetRecord first = new ForgetRecord(full.id(), full.scope(), "actor", "reason", T, two);
    ForgetRecord second =
        new ForgetRecord(MemoryId.of("mem_other"), full.scope(), "actor", "reason", T, two);
    assertEquals(
        List.of(first, second, r),
        StoreRecords.readForget(StoreRecords.forget(List.of(first, second, r))));
  }

  @Test
  void hostileBytes_failToDecodeWithIllegalArgument_neverAnotherError() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Memory m = memory("mem_h", "hostile");
    byte[] good = StoreRecords.put(1, 0, 1, List.of(StoreRecords.entry(m, embed(m), List.of())));
    for (int i = 0; i < 2_000; i++) {
      byte[] bytes =
          random.nextBoolean() ? good.clone() : new byte[random.nextInt(good.length * 2 + 1)];
      if (bytes.length == 0) {
        continue;
      }
      for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
      }
      try {
        StoreRecords.readPut(bytes);
      } catch (IllegalArgumentException expected) {
        // refused: fine
      } catch (RuntimeException | Error e) {
        throw new AssertionError("case " + i + " threw " + e + Seeds.replay(seed), e);
      }
    }
  }

  @Test
  void passages_areJournaled_answeredAtOnce_andReplayedIntoAStoreThatLostThem() {
    Memory a = memory("mem_a", "the deploy uses blue green. rollbacks are manual");
    Memory b = memory("mem_b", "no passages here");
    Memory c = memory("mem_c", "tests run with gradle. the daemon is off");
    Memory a2 =
        a.toBuilder()
            .id(MemoryId.of("mem_a2"))
            .version(2)
            .supersedes(a.id())
            .content("v2. blue green is gone")
            .build();
    List<Embedding> ofA =
        List.of(
            embedder.embed("the deploy uses blue green"), embedder.embed("rollbacks are manual"));
    List<Embedding> ofC = List.of(embedder.embed("the daemon is off"));
    List<Embedding> ofA2 = List.of(embedder.embed("blue green is gone"));
    Embedding query = embedder.embed("the daemon is off");
    List<MemoryId> asked = List.of(a.id(), a2.id(), b.id(), c.id());
    LoggedStore logged = open(freshPassageStore());
    logged.put(a, embed(a), ofA);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(b, embed(b));
    batch.put(c, embed(c));
    logged.putAll(batch, Map.of(c.id(), ofC));
    logged.putNewVersion(a2, embed(a2), ofA2);
    Map<MemoryId, Double> before = logged.passageCosines(SCOPE, asked, query);
    logged.abandon(); // the store is never committed: only the journal has the writes

    PassageKeepingStore lost = freshPassageStore();
    try (LoggedStore reopened = open(lost)) {
      assertEquals(ofA, lost.passagesOf(a.id()), "the superseded version keeps its own");
      assertEquals(List.of(), lost.passagesOf(b.id()));
      assertEquals(ofC, lost.passagesOf(c.id()));
      assertEquals(ofA2, lost.passagesOf(a2.id()));
      Map<MemoryId, Double> after = reopened.passageCosines(SCOPE, asked, query);
      assertEquals(List.of(a2.id(), c.id()), new ArrayList<>(after.keySet()), "latest, with some");
      assertEquals(1.0, after.get(c.id()), 1e-6, "c's passage is the query");
      assertEquals(before, after, "the same answers as before the crash, without a checkpoint");
    }
  }

  @Test
  void aBatchSplitIntoParts_isReplayedWithThePassagesOfEachPart() {
    Memory a = memory("mem_a", "in the first part");
    Memory b = memory("mem_b", "in the second part");
    List<Embedding> ofA = List.of(embedder.embed("first"));
    List<Embedding> ofB = List.of(embedder.embed("second"), embedder.embed("part"));
    try (Journal journal = Journal.open(dir)) {
      journal.append(
          StoreRecords.KIND_PUT,
          StoreRecords.put(9, 0, 2, List.of(StoreRecords.entry(a, embed(a), ofA))));
      journal.append(
          StoreRecords.KIND_PUT,
          StoreRecords.put(9, 1, 2, List.of(StoreRecords.entry(b, embed(b), ofB))));
    }
    PassageKeepingStore store = freshPassageStore();
    try (Journal journal = Journal.open(dir)) {
      assertEquals(2, StoreReplay.apply(journal, store));
    }
    assertEquals(ofA, store.passagesOf(a.id()));
    assertEquals(ofB, store.passagesOf(b.id()));
    store.close();
  }

  @Test
  void overAStoreWithoutPassageVectors_theJournalHoldsNoPassages() {
    Memory a = memory("mem_a", "first");
    Memory a2 =
        a.toBuilder().id(MemoryId.of("mem_a2")).version(2).supersedes(a.id()).content("v2").build();
    LoggedStore logged = open(new PassagelessStore(freshStore()));
    logged.put(a, embed(a), List.of(embed(a)));
    logged.putNewVersion(a2, embed(a2), List.of(embed(a2)));
    logged.abandon();

    PassageKeepingStore keeping = freshPassageStore();
    try (LoggedStore reopened = open(keeping)) {
      assertTrue(reopened.get(a2.id()).orElseThrow().latest(), "both writes are replayed");
      assertEquals(List.of(), keeping.passagesOf(a.id()));
      assertEquals(List.of(), keeping.passagesOf(a2.id()));
    }
  }

  @Test
  void capabilities_areTheStores_passageVectorsExactlyWhenItDeclaresThem() {
    PassageKeepingStore keeping = freshPassageStore();
    MemoryStore without = new PassagelessStore(freshStore());
    try (LoggedStore overKeeping =
            LoggedStore.open(keeping, new JournalCursor(Journal.inMemory()));
        LoggedStore overWithout =
            LoggedStore.open(without, new JournalCursor(Journal.inMemory()))) {
      assertEquals(keeping.capabilities(), overKeeping.capabilities());
      assertTrue(overKeeping.capabilities().contains(StoreCapability.PASSAGE_VECTORS));
      assertEquals(without.capabilities(), overWithout.capabilities());
      assertFalse(overWithout.capabilities().contains(StoreCapability.PASSAGE_VECTORS));
    }
  }

  @Test
  void badPassages_throwIllegalArgument_andNeitherTheJournalNorTheStoreChanges() {
    Memory a = memory("mem_a", "kept as it was");
    Memory changed = memory("mem_a", "replaced?");
    Memory b = memory("mem_b", "a batch");
    Memory a2 =
        a.toBuilder().id(MemoryId.of("mem_a2")).version(2).supersedes(a.id()).content("v2").build();
    List<Embedding> ofA = List.of(embed(a));
    List<Embedding> tooMany = Collections.nCopies(MemoryStore.MAX_PASSAGES + 1, embed(b));
    Embedding otherDimension = Embedding.of(1f, 0f);
    PassageKeepingStore store = freshPassageStore();
    LoggedStore logged = open(store);
    logged.put(a, embed(a), ofA);
    long lastLogged = logged.journalForTests().lastSequence();

    List<Executable> writes =
        List.of(
            () -> logged.put(changed, embed(changed), tooMany),
            () -> logged.put(changed, embed(changed), List.of(embed(b), otherDimension)),
            () -> logged.putAll(Map.of(b, embed(b)), Map.of(b.id(), List.of(otherDimension))),
            () -> logged.putAll(Map.of(b, embed(b)), Map.of(a2.id(), List.of(embed(b)))),
            () -> logged.putNewVersion(a2, embed(a2), tooMany));
    for (int i = 0; i < writes.size(); i++) {
      assertThrows(IllegalArgumentException.class, writes.get(i), "write " + i);
    }

    assertEquals(lastLogged, logged.journalForTests().lastSequence(), "nothing was journaled");
    assertEquals(a, store.get(a.id()).orElseThrow(), "still latest, unchanged");
    assertEquals(ofA, store.passagesOf(a.id()));
    assertTrue(store.get(b.id()).isEmpty());
    assertTrue(store.get(a2.id()).isEmpty());
    logged.close();
  }

  private boolean journalHolds(String text) throws IOException {
    return !IndexFiles.filesContaining(dir, text).isEmpty();
  }

  /**
   * A store that keeps no passages whatever its store does: it declares no {@code PASSAGE_VECTORS}
   * and drops them as the SPI's defaults do.
   */
  private static final class PassagelessStore extends ForwardingMemoryStore {

    PassagelessStore(MemoryStore store) {
      super(store);
    }

    @Override
    public Set<StoreCapability> capabilities() {
      Set<StoreCapability> capabilities = EnumSet.noneOf(StoreCapability.class);
      capabilities.addAll(super.capabilities());
      capabilities.remove(StoreCapability.PASSAGE_VECTORS);
      return capabilities;
    }

    @Override
    public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
      MemoryStore.checkPassages(embedding, passages);
      delegate().put(memory, embedding);
    }

    @Override
    public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
      MemoryStore.checkPassages(batch, passages);
      delegate().putAll(batch);
    }

    @Override
    public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
      MemoryStore.checkPassages(embedding, passages);
      delegate().putNewVersion(next, embedding);
    }

    @Override
    public Map<MemoryId, Double> passageCosines(
        Scope scope, Collection<MemoryId> ids, Embedding query) {
      return Map.of();
    }
  }
}
