package dev.memhook.cli;

import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryMaintenance;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.capture.MemoryCapture;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.trace.MemoryTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The store of a running {@code memhook serve}, lent to one command it runs for a client ({@link
 * CliEndpoint}): the command works on the open service instead of opening the directory, and may
 * decline to run in the server ({@link #decline}), for a reason only the client's own process can
 * satisfy; the client then runs it itself.
 *
 * <p>Thread-safe; one per command run. Never null where a {@link CliContext} holds it.
 */
final class ServedStore {
  private final Path directory;
  private final Path named;
  private final MemoryService memory;
  private final AtomicReference<String> declined = new AtomicReference<>();

  /**
   * @param directory the server's store directory
   * @param named the same directory as the client names it (relative to its working directory)
   * @param memory the server's open store, which stays the server's
   */
  ServedStore(Path directory, Path named, MemoryService memory) {
    this.directory = Objects.requireNonNull(directory, "directory");
    this.named = Objects.requireNonNull(named, "named");
    this.memory = Objects.requireNonNull(memory, "memory");
  }

  /** The server's store directory, to read its files. */
  Path directory() {
    return directory;
  }

  /** The directory as the client names it, to print. */
  Path named() {
    return named;
  }

  /** The server's store, whose {@code close()} does nothing: closing it stays the server's. */
  MemoryService lend() {
    return new Lent(memory);
  }

  /**
   * Records that the command cannot run in the server, for {@code why}, and returns the exception
   * that ends its run there.
   */
  CliException decline(String why) {
    declined.compareAndSet(null, Objects.requireNonNull(why, "why"));
    return new CliException(ExitCode.FAILED, "runs in the client's process: " + why);
  }

  /** Why the command declined to run in the server, if it did. */
  Optional<String> declined() {
    return Optional.ofNullable(declined.get());
  }

  /** A service that forwards everything to the server's but {@link #close()}. */
  private record Lent(MemoryService memory) implements MemoryService {
    @Override
    public Memory remember(MemoryDraft draft) {
      return memory.remember(draft);
    }

    @Override
    public Memory update(MemoryId id, MemoryDraft draft) {
      return memory.update(id, draft);
    }

    @Override
    public Optional<Memory> get(MemoryId id) {
      return memory.get(id);
    }

    @Override
    public RecallResult recall(RecallQuery query) {
      return memory.recall(query);
    }

    @Override
    public StandingProfile standing(Scope scope, int maxChars) {
      return memory.standing(scope, maxChars);
    }

    @Override
    public List<ForgetRecord> forget(MemoryId id, String actor, String reason, ForgetMode mode) {
      return memory.forget(id, actor, reason, mode);
    }

    @Override
    public MemoryHook hookInto(ChatService chat, HookOptions options) {
      return memory.hookInto(chat, options);
    }

    @Override
    public MemoryCapture capture() {
      return memory.capture();
    }

    @Override
    public MemoryMaintenance maintenance() {
      return memory.maintenance();
    }

    @Override
    public MemoryTrace trace() {
      return memory.trace();
    }

    @Override
    public void close() {
      // the server's store: it closes it when it stops
    }
  }
}
