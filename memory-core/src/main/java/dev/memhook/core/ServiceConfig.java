package dev.memhook.core;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.api.trace.MemoryListener;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Everything a {@link Memhook.Builder} resolved, as one immutable value: each choice the builder
 * left to a default is filled in, and each mode is a type or an {@link Optional}, never a null.
 * {@link ServiceAssembly} opens a service from it.
 *
 * @param storage where memories live
 * @param embedder the host's embedder; empty: the highest-priority provider found on the class path
 * @param recall how recall ranks and filters
 * @param clock the service's clock
 * @param executor the host's executor for hooks' recalls; empty: the service's own pool
 * @param redaction what is removed before anything is stored
 * @param capture capture's options; empty: the service captures nothing
 * @param sessionStore where capture keeps its sessions; empty: beside the journal, or in memory
 * @param listener who hears what the service did
 */
record ServiceConfig(
    Storage storage,
    Optional<Embedder> embedder,
    RecallOptions recall,
    Clock clock,
    Optional<Executor> executor,
    Redaction redaction,
    Optional<CaptureOptions> capture,
    Optional<SessionStore> sessionStore,
    MemoryListener listener) {

  ServiceConfig {
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(recall, "recall");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(redaction, "redaction");
    Objects.requireNonNull(capture, "capture");
    Objects.requireNonNull(sessionStore, "sessionStore");
    Objects.requireNonNull(listener, "listener");
    if (sessionStore.isPresent() && capture.isEmpty()) {
      throw new IllegalArgumentException("a session store needs capture");
    }
    if (storage instanceof OnDisk disk
        && disk.access() == Access.READ_ONLY
        && capture.isPresent()) {
      throw new IllegalArgumentException("a read-only service captures nothing");
    }
  }

  /** Where memories live: one of the three choices of the builder. */
  sealed interface Storage {}

  /** A store the host built and handed over; the service closes it. */
  record HostStore(MemoryStore store) implements Storage {
    HostStore {
      Objects.requireNonNull(store, "store");
    }
  }

  /** The embedded Lucene store in a directory, beside the capture journal. */
  record OnDisk(Path directory, Access access) implements Storage {
    OnDisk {
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(access, "access");
    }

    /** The capture journal's directory inside {@link #directory}. */
    Path journal() {
      return directory.resolve(Memhook.JOURNAL_DIRECTORY);
    }
  }

  /** The Lucene store on a heap directory: gone when the service closes. */
  record InMemory() implements Storage {}

  /** Whether a directory is opened for writing. */
  enum Access {
    READ_WRITE,
    READ_ONLY
  }
}
