package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code remember} acknowledges is always readable: random drafts at and around every field
 * limit are either rejected up front, with nothing stored, or read back equal to what {@code
 * remember} returned, before and after the store is reopened.
 */
class AcknowledgedIsReadableTest {

  private static final int DRAFTS = 150;
  private static final int SCOPES = 3;

  static java.util.stream.LongStream seeds() {
    return Seeds.seeds(2);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void eachDraft_isRejectedWhole_orReadBackEqual_alsoAfterReopening(long seed, @TempDir Path dir) {
    HostileText text = new HostileText(seed);
    List<Memory> acknowledged = new ArrayList<>();
    int rejected = 0;
    LuceneMemoryStore store = LuceneMemoryStore.builder().directory(dir).build();
    try (MemoryService memory =
        Memhook.builder().store(store).embedder(HashingEmbedder.create()).build()) {
      for (int i = 0; i < DRAFTS; i++) {
        MemoryDraft draft;
        try {
          draft = randomDraft(text);
        } catch (IllegalArgumentException | NullPointerException e) {
          rejected++;
          continue; // the draft itself refused a field: nothing could have been written
        }
        long before = stored(store);
        Memory stored;
        try {
          stored = memory.remember(draft);
        } catch (IllegalArgumentException e) {
          rejected++;
          assertEquals(before, stored(store), "rejected, yet something was stored");
          continue;
        }
        acknowledged.add(stored);
        assertEquals(stored, memory.get(stored.id()).orElseThrow(), Seeds.replay(seed));
      }
    }
    assertTrue(acknowledged.size() > DRAFTS / 10, "too few drafts accepted to prove anything");
    assertTrue(rejected > DRAFTS / 10, "too few drafts rejected to prove anything");
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      for (Memory m : acknowledged) {
        assertEquals(
            m,
            memory.get(m.id()).orElseGet(() -> fail("lost " + m.id() + "; " + Seeds.replay(seed))),
            Seeds.replay(seed));
      }
    }
  }

  private static long stored(LuceneMemoryStore store) {
    long n = 0;
    for (int s = 0; s < SCOPES; s++) {
      n += store.count(Scope.of("t" + s));
    }
    return n;
  }

  private static MemoryDraft randomDraft(HostileText text) {
    Random r = text.random();
    // a third of the drafts may break limits; the rest stay at or under every one
    boolean over = r.nextInt(3) == 0;
    String content = text.nearLimit(r.nextInt(4) == 0 ? MemoryDraft.MAX_CONTENT : 300, over);
    if (content.isBlank()) {
      content = content + "x";
    }
    MemoryDraft.Builder b = MemoryDraft.builder(Scope.of("t" + r.nextInt(SCOPES)), content);
    if (r.nextBoolean()) {
      b.title(text.nearLimit(MemoryDraft.MAX_TITLE, over));
    }
    if (r.nextBoolean()) {
      b.summary(text.nearLimit(MemoryDraft.MAX_SUMMARY, over));
    }
    if (r.nextBoolean()) {
      b.context(
          text.nearLimit(
              r.nextBoolean() ? MemoryDraft.MAX_CONTEXT : MemoryDraft.MAX_CONTENT, over));
    }
    if (r.nextBoolean()) {
      b.concepts(list(text, MemoryDraft.MAX_CONCEPTS, MemoryDraft.MAX_CONCEPT, over));
    }
    if (r.nextBoolean()) {
      b.files(list(text, MemoryDraft.MAX_FILES, MemoryDraft.MAX_FILE, over));
    }
    if (r.nextBoolean()) {
      b.sourceSession(text.nearLimit(MemoryDraft.MAX_SESSION, over));
    }
    if (r.nextBoolean()) {
      b.origin(new Origin(Origin.Kind.TOOL, text.nearLimit(MemoryDraft.MAX_ORIGIN_NAME, over)));
    }
    if (r.nextBoolean()) {
      Map<String, String> attributes = new LinkedHashMap<>();
      int n = count(r, MemoryDraft.MAX_ATTRIBUTES, over);
      for (int i = 0; i < n; i++) {
        attributes.put(
            i + text.nearLimit(MemoryDraft.MAX_ATTRIBUTE_KEY - 2, over),
            text.nearLimit(MemoryDraft.MAX_ATTRIBUTE_VALUE, over));
      }
      b.attributes(attributes);
    }
    if (r.nextBoolean()) {
      List<SourcePin> pins = new ArrayList<>();
      int n = count(r, MemoryDraft.MAX_SOURCE_PINS, over);
      for (int i = 0; i < n; i++) {
        pins.add(
            new SourcePin(
                "p" + text.nearLimit(MemoryDraft.MAX_PIN_PATH - 1, over),
                "d" + text.nearLimit(MemoryDraft.MAX_PIN_DIGEST - 1, over)));
      }
      b.sourcePins(pins);
    }
    return b.build();
  }

  private static List<String> list(HostileText text, int maxCount, int maxLength, boolean over) {
    int n = count(text.random(), maxCount, over);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(text.nearLimit(maxLength, over));
    }
    return out;
  }

  private static int count(Random r, int max, boolean over) {
    return switch (r.nextInt(4)) {
      case 0 -> max;
      case 1 -> over ? max + 1 : max;
      default -> r.nextInt(4);
    };
  }
}
