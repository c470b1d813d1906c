package dev.memhook.core;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.MemoryService;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbedderProvider;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.LocalMemoryService;
import dev.memhook.core.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: builds a {@link MemoryService}.
 *
 * <pre>{@code
 * try (MemoryService memory = Memhook.builder().directory(Path.of("memory")).build();
 *      MemoryHook hook = memory.hookInto(chat)) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class Memhook {

  private static final Logger LOG = LoggerFactory.getLogger(Memhook.class);

  private Memhook() {}

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The embedder a builder uses when none is set: see {@link Builder#embedder}. */
  static Embedder discoverEmbedder(ClassLoader loader) {
    List<EmbedderProvider> providers = new ArrayList<>();
    for (EmbedderProvider p : ServiceLoader.load(EmbedderProvider.class, loader)) {
      providers.add(p);
    }
    providers.sort(Comparator.comparingInt(EmbedderProvider::priority).reversed());
    for (EmbedderProvider p : providers) {
      try {
        Embedder e = p.create();
        LOG.info("memhook: using embedder {} ({}, {} dimensions)", p.name(), e.modelId(), e.dimension());
        return e;
      } catch (RuntimeException e) {
        LOG.warn("memhook: embedder provider {} failed, trying the next: {}", p.name(), e.toString());
      }
    }
    LOG.info("memhook: no embedding model on the class path (add memory-djl-embeddings for semantic recall);"
        + " using the dependency-free hashing embedder");
    return HashingEmbedder.create();
  }

  /**
   * Builds a {@link MemoryService}. Not thread-safe; each setter validates at once and each thing
   * is set one way.
   *
   * <p>Required: where memories live, by {@link #directory(Path)} (the embedded default, Lucene on
   * disk), {@link #store(MemoryStore)} or {@link #inMemory()}.
   * Optional: the embedder (default: the highest-priority {@link EmbedderProvider} found by
   * {@link ServiceLoader}, such as the local MiniLM model of {@code memory-djl-embeddings}, else
   * {@link HashingEmbedder} with a logged notice), recall options (default
   * {@link RecallOptions#defaults()}), the executor hooks recall on (default: a daemon pool of
   * {@code max(2, cores)} threads named {@code memhook-recall-N}, shut down on close), and the clock.
   *
   * <p>The service owns and closes the store and the embedder; it does not shut down an executor
   * it was given.
   */
  public static final class Builder {
    private MemoryStore store;
    private Embedder embedder;
    private RecallOptions recallOptions = RecallOptions.defaults();
    private Executor executor;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** Stores memories in {@code store}, which the service then owns. */
    public Builder store(MemoryStore value) {
      Objects.requireNonNull(value, "store");
      checkStoreUnset();
      this.store = value;
      return this;
    }

    /**
     * Stores memories in the embedded default: a {@link LuceneMemoryStore} in {@code directory}
     * (created if missing), durable when {@code remember} returns. The same directory reopens every
     * acknowledged memory; it is locked while the service is open.
     */
    public Builder directory(Path directory) {
      Objects.requireNonNull(directory, "directory");
      checkStoreUnset();
      this.store = LuceneMemoryStore.builder().directory(directory).build();
      return this;
    }

    /**
     * Stores memories in a new {@link LuceneMemoryStore} on a heap directory: the same ranking as
     * the embedded default, and nothing survives {@link MemoryService#close()}.
     */
    public Builder inMemory() {
      checkStoreUnset();
      this.store = LuceneMemoryStore.inMemory();
      return this;
    }

    /** Embeds with {@code value}, which the service then owns. */
    public Builder embedder(Embedder value) {
      Objects.requireNonNull(value, "embedder");
      if (embedder != null) {
        throw new IllegalStateException("embedder is already set to " + embedder);
      }
      this.embedder = value;
      return this;
    }

    /** Ranks and filters recall with {@code value}. */
    public Builder recallOptions(RecallOptions value) {
      this.recallOptions = Objects.requireNonNull(value, "recallOptions");
      return this;
    }

    /** Runs hook recalls on {@code value}; the service does not shut it down. */
    public Builder executor(Executor value) {
      this.executor = Objects.requireNonNull(value, "executor");
      return this;
    }

    /** Reads time from {@code value}. */
    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /**
     * Builds the service.
     *
     * @throws IllegalStateException if no store was chosen
     * @throws dev.memhook.api.IncompatibleStoreException if the store holds vectors of another model
     */
    public MemoryService build() {
      if (store == null) {
        throw new IllegalStateException("choose where memories live: directory(path), store(...) or inMemory()");
      }
      Embedder chosen = embedder != null ? embedder : discoverEmbedder(Memhook.class.getClassLoader());
      ExecutorService owned = null;
      Executor exec = executor;
      if (exec == null) {
        owned = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
            new NamedDaemonThreads("memhook-recall-"));
        exec = owned;
      }
      try {
        return new LocalMemoryService(store, chosen, recallOptions, clock, exec, owned);
      } catch (RuntimeException e) {
        if (owned != null) {
          owned.shutdownNow();
        }
        if (embedder == null) {
          chosen.close();
        }
        throw e;
      }
    }

    private void checkStoreUnset() {
      if (store != null) {
        throw new IllegalStateException("the store is already chosen: " + store);
      }
    }
  }

  private static final class NamedDaemonThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger next = new AtomicInteger(1);

    NamedDaemonThreads(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, prefix + next.getAndIncrement());
      t.setDaemon(true);
      return t;
    }
  }
}
