package dev.memhook.langchain4j;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.Registration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callbacks of one phase of the send loop ({@code beforeSendLoop} or {@code afterSend}), in
 * registration order.
 *
 * <p>Thread-safe: callbacks may be registered and removed while they run. {@link #fire()} runs them
 * on the calling thread, outside any lock, one after the other, each awaited; a callback that
 * throws, returns null or whose stage fails is logged and the next one runs: the host's turn comes
 * first.
 */
final class Callbacks {

  /** Logged under the public class's name, which hosts configure their logging by. */
  private static final Logger LOG = LoggerFactory.getLogger(LangChain4jChatService.class);

  /** One registration of a callback: its own identity, so removing it twice removes it once. */
  private record Entry(ChatCallback callback, AtomicBoolean removed) {}

  private final String phase;
  private final List<Entry> entries = new CopyOnWriteArrayList<>();

  /**
   * @param phase the phase's name, as the log says it
   */
  Callbacks(String phase) {
    this.phase = phase;
  }

  /** Adds a callback; the registration removes this one registration, once. */
  Registration register(ChatCallback callback) {
    Objects.requireNonNull(callback, "callback");
    Entry entry = new Entry(callback, new AtomicBoolean());
    entries.add(entry);
    return () -> {
      if (entry.removed().compareAndSet(false, true)) {
        entries.remove(entry);
      }
    };
  }

  /** Runs every callback not removed yet and awaits it; never throws a callback's failure. */
  void fire() {
    for (Entry e : entries) {
      if (e.removed().get()) {
        continue;
      }
      try {
        Objects.requireNonNull(e.callback().run(), "the callback returned null")
            .toCompletableFuture()
            .join();
      } catch (RuntimeException failure) {
        LOG.warn("a {} callback failed; the send goes on", phase, Stages.unwrap(failure));
      }
    }
  }
}
