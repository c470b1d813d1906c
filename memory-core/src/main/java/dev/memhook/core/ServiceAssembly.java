package dev.memhook.core;

import dev.memhook.api.MemoryService;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbedderProvider;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.LocalMemoryService;
import dev.memhook.core.internal.ServiceParts;
import dev.memhook.core.internal.inject.RecallPool;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: opens a service's parts from a {@link ServiceConfig} in order — the store,
 * the embedder, the executor, then the service over them, which replays its journal and starts
 * capture — and, if a step fails, closes what the earlier steps opened, newest first, so that a
 * failed {@code build()} leaves no lock, thread or loaded model behind. Once built, the service
 * owns the parts and closes them in the order {@code ServiceShutdown} states.
 *
 * <p>Stateless.
 */
final class ServiceAssembly {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAssembly.class);

  /**
   * The Lucene store's own commit interval when the service logs its writes: a backstop, since the
   * service's checkpoints commit it every second.
   */
  private static final Duration LOGGED_STORE_COMMIT = Duration.ofMinutes(1);

  private ServiceAssembly() {}

  /** Opens the service {@code config} describes. */
  static MemoryService open(ServiceConfig config) {
    MemoryStore openedStore = null;
    Embedder discovered = null;
    ExecutorService ownedExecutor = null;
    try {
      MemoryStore store;
      if (config.storage() instanceof ServiceConfig.HostStore host) {
        store = host.store();
      } else {
        openedStore = openStore(config.storage());
        store = openedStore;
      }
      Embedder embedder;
      if (config.embedder().isPresent()) {
        embedder = config.embedder().get();
      } else {
        discovered = discoverEmbedder(Memhook.class.getClassLoader());
        embedder = discovered;
      }
      Executor executor;
      if (config.executor().isPresent()) {
        executor = config.executor().get();
      } else {
        ownedExecutor = RecallPool.createDefault();
        executor = ownedExecutor;
      }
      Optional<Path> journal = Optional.empty();
      ServiceParts.StoreWrites writes = ServiceParts.StoreWrites.DIRECT;
      if (config.storage() instanceof ServiceConfig.OnDisk disk) {
        journal = Optional.of(disk.journal());
        if (disk.access() == ServiceConfig.Access.READ_WRITE) {
          writes = ServiceParts.StoreWrites.JOURNALED;
        }
      }
      LocalMemoryService service =
          new LocalMemoryService(
              new ServiceParts(
                  store,
                  writes,
                  embedder,
                  config.recall(),
                  config.clock(),
                  executor,
                  Optional.ofNullable(ownedExecutor),
                  config.redaction().sanitizer(),
                  config.capture(),
                  journal,
                  config.sessionStore(),
                  config.listener()));
      service.warmUp(openedStore != null);
      return service;
    } catch (RuntimeException | Error e) {
      if (ownedExecutor != null) {
        ownedExecutor.shutdownNow();
      }
      closeAfterFailure(discovered, e);
      closeAfterFailure(openedStore, e);
      throw e;
    }
  }

  private static MemoryStore openStore(ServiceConfig.Storage storage) {
    if (storage instanceof ServiceConfig.OnDisk disk) {
      LuceneMemoryStore.Builder builder = LuceneMemoryStore.builder().directory(disk.directory());
      return disk.access() == ServiceConfig.Access.READ_ONLY
          ? builder.readOnly().build()
          : builder.groupCommit(LOGGED_STORE_COMMIT).build();
    }
    return LuceneMemoryStore.inMemory();
  }

  /** The embedder a builder uses when none is set: see {@link Memhook.Builder#embedder}. */
  static Embedder discoverEmbedder(ClassLoader loader) {
    List<EmbedderProvider> providers = new ArrayList<>();
    for (EmbedderProvider p : ServiceLoader.load(EmbedderProvider.class, loader)) {
      providers.add(p);
    }
    providers.sort(Comparator.comparingInt(EmbedderProvider::priority).reversed());
    for (EmbedderProvider p : providers) {
      try {
        Embedder e = p.create();
        LOG.info(
            "memhook: using embedder {} ({}, {} dimensions)", p.name(), e.modelId(), e.dimension());
        return e;
      } catch (RuntimeException e) {
        LOG.warn(
            "memhook: embedder provider {} failed, trying the next: {}", p.name(), e.toString());
      }
    }
    LOG.info(
        "memhook: no embedding model on the class path (add memory-djl-embeddings for semantic recall);"
            + " using the dependency-free hashing embedder");
    return HashingEmbedder.create();
  }

  private static void closeAfterFailure(AutoCloseable opened, Throwable failure) {
    if (opened == null) {
      return;
    }
    try {
      opened.close();
    } catch (Exception | Error e) {
      failure.addSuppressed(e);
    }
  }
}
