package dev.memhook.core.internal.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping the checkpoints waits for a commit in progress and never interrupts it: an interrupt
 * during Lucene's file I/O closes the channel it was using (the index lock's among them), which
 * makes the writer's commit fail as a tragedy and leaves the index uncommitted at close.
 */
class StoreCheckpointsTest {
  @TempDir Path dir;

  @Test
  void stop_waitsForTheCommitInProgress_withoutInterruptingIt() throws Exception {
    CountDownLatch committing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    LuceneMemoryStore lucene = LuceneMemoryStore.inMemory();
    ForwardingMemoryStore store =
        new ForwardingMemoryStore(lucene) {
          @Override
          public void flush() {
            committing.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              interrupted.set(true);
              Thread.currentThread().interrupt();
            }
          }
        };
    StoreCheckpoints checkpoints =
        new StoreCheckpoints(
            store, new JournalCursor(Journal.open(dir)), Duration.ofMillis(10), Long.MAX_VALUE);
    assertTrue(committing.await(30, TimeUnit.SECONDS), "a periodic checkpoint started");
    Thread stopper = new Thread(checkpoints::stop, "stopper");
    stopper.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (stopper.getState() != Thread.State.TIMED_WAITING
        && stopper.isAlive()
        && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    release.countDown();
    stopper.join(TimeUnit.SECONDS.toMillis(30));
    assertFalse(stopper.isAlive());
    assertFalse(interrupted.get(), "stop interrupted the commit in progress");
    lucene.close();
  }
}
