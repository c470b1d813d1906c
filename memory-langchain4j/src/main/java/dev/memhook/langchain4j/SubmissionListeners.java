package dev.memhook.langchain4j;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code onRequestSubmitted} listeners of one {@link LangChain4jChatService}, and the attempt
 * ids it gives its submissions: {@code attempt-1}, {@code attempt-2}, … in submission order, unique
 * within the service.
 *
 * <p>Thread-safe: listeners may be registered and removed while a submission is reported. {@link
 * #report} calls them on the calling thread, in registration order; one that throws is logged and
 * the next one runs, since a listener must never fail the request it hears about.
 */
final class SubmissionListeners {

  /** Logged under the public class's name, which hosts configure their logging by. */
  private static final Logger LOG = LoggerFactory.getLogger(LangChain4jChatService.class);

  /** One registration: its own identity, so removing it twice removes it once. */
  private record Entry(Consumer<SubmittedRequest> listener, AtomicBoolean removed) {}

  private final List<Entry> entries = new CopyOnWriteArrayList<>();
  private final AtomicLong attempts = new AtomicLong();

  /** Adds a listener; the registration removes this one registration, once. */
  Registration register(Consumer<SubmittedRequest> listener) {
    Entry entry = new Entry(Objects.requireNonNull(listener, "listener"), new AtomicBoolean());
    entries.add(entry);
    return () -> {
      if (entry.removed().compareAndSet(false, true)) {
        entries.remove(entry);
      }
    };
  }

  /**
   * Gives the request about to be submitted a fresh attempt id and tells every listener of it.
   * Never throws a listener's failure.
   */
  void report(List<ChatMessage> messages) {
    SubmittedRequest request =
        new SubmittedRequest("attempt-" + attempts.incrementAndGet(), messages);
    for (Entry e : entries) {
      if (e.removed().get()) {
        continue;
      }
      try {
        e.listener().accept(request);
      } catch (RuntimeException failure) {
        LOG.warn(
            "an onRequestSubmitted listener failed on {}; the request goes on",
            request.attemptId(),
            failure);
      }
    }
  }
}
