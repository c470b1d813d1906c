package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

/**
 * The process {@link LuceneMemoryStoreForgetCrashTest} kills: opens the store at {@code args[0]}
 * with the commit mode {@code args[3]} names, stores 30 memories and the {@linkplain
 * LuceneMemoryStoreForgetErasesTest#secret secret} carrying {@code args[1]}, prints {@value
 * #STORED}, waits for a line on stdin, forgets the secret, prints {@value #FORGOTTEN} and then
 * blocks until it is killed, with the store open.
 *
 * <p>Under {@linkplain CommitMode#GROUP_COMMIT group commit} the interval is longer than the test,
 * so only what the child itself commits is on disk: it commits the secret and the memories before
 * it ({@code forceMerge}, durable in either mode) so that there is something to erase, and leaves
 * the ten after it pending, so that the forget's commit is the one that makes them durable.
 */
final class ForgetThenHang {
  static final String STORED = "STORED";
  static final String FORGOTTEN = "FORGOTTEN";

  /** How the child's store commits. */
  enum CommitMode {
    /** The default: every write is committed before it returns. */
    PER_WRITE,
    /** {@code groupCommit}, with an interval no test waits for. */
    GROUP_COMMIT
  }

  public static void main(String[] args) throws Exception {
    Path index = Path.of(args[0]);
    String token = args[1];
    Random random = new Random(Long.parseLong(args[2]));
    CommitMode mode = CommitMode.valueOf(args[3]);
    LuceneMemoryStore.Builder builder = LuceneMemoryStore.builder().directory(index);
    if (mode == CommitMode.GROUP_COMMIT) {
      builder.groupCommit(Duration.ofMinutes(1));
    }
    LuceneMemoryStore store = builder.build();
    store.attach(SPACE);
    for (int i = 0; i < 20; i++) {
      store.put(randomMemory(random, "before" + i, A), randomVector(random));
    }
    store.put(LuceneMemoryStoreForgetErasesTest.secret("secret", token), randomVector(random));
    if (mode == CommitMode.GROUP_COMMIT) {
      store.forceMerge(1);
    }
    for (int i = 0; i < 10; i++) {
      store.put(randomMemory(random, "after" + i, A), randomVector(random));
    }
    System.out.println(STORED);
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    MemoryId id = MemoryId.of("secret");
    store.delete(id, new ForgetRecord(id, A, "alice", "held a key", T0));
    System.out.println(FORGOTTEN);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private ForgetThenHang() {}
}
