package dev.memhook.core.durability;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child JVM of {@link WriteCrashTest}: writes without end through a service on the directory it
 * is given, and prints one line per write after the call returned, until it is killed. Two threads:
 * one mixes remember, update, batch import and forget; one only remembers, so that two writers
 * share the journal's fsyncs. Lines:
 *
 * <pre>
 * R &lt;id&gt; &lt;token&gt;              remembered
 * U &lt;previous id&gt; &lt;next id&gt; &lt;token&gt; updated
 * b &lt;batch key&gt; &lt;n&gt;             about to import a batch of n (each with attribute batch=key)
 * B &lt;batch key&gt; &lt;n&gt;             the batch imported
 * f &lt;id&gt; &lt;batch key or -&gt;     about to forget (with the batch its first version came in)
 * F &lt;id&gt; &lt;batch key or -&gt;     forgotten
 * </pre>
 */
public final class WriteCrashChild {

  static final Scope SCOPE = Scope.of("wal");

  private WriteCrashChild() {}

  /** Args: the store directory, the seed, a prefix unique to this run. */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    String run = args[2];
    MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
    List<Memory> latest = new ArrayList<>();
    // the batch each memory's first version came in, for the parent's count of forgotten members
    Map<MemoryId, String> batchOf = new HashMap<>();
    memory
        .maintenance()
        .export(
            m -> {
              if (m.latest() && m.scope().equals(SCOPE)) {
                latest.add(m);
              }
              if (m.attributes().containsKey("batch")) {
                batchOf.put(m.id(), m.attributes().get("batch"));
              }
            });
    print("READY");
    Thread second =
        new Thread(
            () -> {
              for (int n = 0; ; n++) {
                String token = run + "s" + n;
                Memory m = memory.remember(MemoryDraft.builder(SCOPE, "second " + token).build());
                print("R " + m.id().value() + " " + token);
              }
            });
    second.setDaemon(true);
    second.start();
    for (int n = 0; ; n++) {
      String token = run + "m" + n;
      int op = random.nextInt(100);
      if (op < 50 || latest.isEmpty()) {
        Memory m = memory.remember(MemoryDraft.builder(SCOPE, "main " + token).build());
        latest.add(m);
        print("R " + m.id().value() + " " + token);
      } else if (op < 70) {
        Memory previous = latest.remove(random.nextInt(latest.size()));
        Memory next =
            memory.update(previous.id(), MemoryDraft.builder(SCOPE, "updated " + token).build());
        latest.add(next);
        if (batchOf.containsKey(previous.id())) {
          batchOf.put(next.id(), batchOf.get(previous.id()));
        }
        print("U " + previous.id().value() + " " + next.id().value() + " " + token);
      } else if (op < 85) {
        int size = 5 + random.nextInt(60);
        List<MemoryDraft> drafts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          drafts.add(
              MemoryDraft.builder(SCOPE, "batch " + token + " item " + i)
                  .attributes(Map.of("batch", token))
                  .build());
        }
        print("b " + token + " " + size);
        for (Memory m : memory.maintenance().rememberAll(drafts)) {
          latest.add(m);
          batchOf.put(m.id(), token);
        }
        print("B " + token + " " + size);
      } else {
        Memory gone = latest.remove(random.nextInt(latest.size()));
        print("f " + gone.id().value() + " " + batchOf.getOrDefault(gone.id(), "-"));
        if (memory.forget(gone.id())) {
          print("F " + gone.id().value() + " " + batchOf.getOrDefault(gone.id(), "-"));
        }
      }
    }
  }

  private static synchronized void print(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
