package dev.memhook.api.chat;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The {@link ChatService#onRequestSubmitted} listeners of one {@link HostedChat}: it returns {@code
 * Optional.of(listeners.register(listener))} from {@code onRequestSubmitted}, and calls {@link
 * #report} right before each request goes to the model. Attempt ids are {@code attempt-1}, {@code
 * attempt-2}, … in submission order, unique within the chat service.
 *
 * <p>Thread-safe: listeners may be registered and removed while a submission is reported. {@link
 * #report} calls them on the calling thread, in registration order; one that throws is logged (as a
 * {@link System.Logger} warning) and the next one runs, since a listener must never fail the
 * request it hears about. Null arguments are rejected with {@link NullPointerException}.
 */
final class SubmissionListeners {

  private static final System.Logger LOG = System.getLogger(SubmissionListeners.class.getName());

  /** One registration: its own identity, so removing it twice removes it once. */
  private record Entry(Consumer<SubmittedRequest> listener, AtomicBoolean removed) {}

  private final List<Entry> entries = new CopyOnWriteArrayList<>();
  private final AtomicLong attempts = new AtomicLong();

  /** No listeners yet; the first reported submission is {@code attempt-1}. */
  public SubmissionListeners() {}

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
   * Gives the request about to be submitted, carrying {@code messages} in the order the model reads
   * them, a fresh attempt id and tells every listener of it. Never throws a listener's failure.
   *
   * @return the request as reported
   */
  SubmittedRequest report(List<ChatMessage> messages) {
    SubmittedRequest request =
        new SubmittedRequest(
            "attempt-" + attempts.incrementAndGet(), Objects.requireNonNull(messages, "messages"));
    for (Entry e : entries) {
      if (e.removed().get()) {
        continue;
      }
      try {
        e.listener().accept(request);
      } catch (RuntimeException failure) {
        LOG.log(
            System.Logger.Level.WARNING,
            "an onRequestSubmitted listener failed on "
                + request.attemptId()
                + "; the request goes on",
            failure);
      }
    }
    return request;
  }
}
