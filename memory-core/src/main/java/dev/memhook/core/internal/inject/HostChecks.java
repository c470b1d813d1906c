package dev.memhook.core.internal.inject;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices the host mistakes that cost a hook its memories silently, and says so once per hook.
 *
 * <p>A hook recalls for a user message when {@code beforeSendLoop} fires. A host that shows the
 * user's message in {@code messages()} only after the callbacks ran (it queued the input and
 * flushed it later), or never shows it as a {@code USER}-origin user message, gets no memories and
 * no error. After each model reply the hook looks for exactly those two shapes: a user message that
 * no {@code beforeSendLoop} saw, or model answers with no user message at all. The first one found
 * is logged as a warning; later ones are not, so a misbehaving host does not flood its log.
 *
 * <p>Thread-safe.
 */
final class HostChecks {

  private static final Logger LOG = LoggerFactory.getLogger(HostChecks.class);

  private final String hookId;
  private final AtomicBoolean warned = new AtomicBoolean();
  private volatile String warning;

  HostChecks(String hookId) {
    this.hookId = hookId;
  }

  /**
   * Checks the conversation as {@code afterSend} sees it, against what the hook has seen so far:
   * {@code seen} holds every user message a {@code beforeSendLoop} saw, those it scanned and those
   * whose recall timed out and was handed back to the next callback, which are not scanned now but
   * were in time.
   *
   * @return the warning logged, or null when none was
   */
  String afterReply(List<ChatMessage> conversation, Predicate<String> seen) {
    if (warned.get()) {
      return null;
    }
    ChatMessage unseen = null;
    boolean anyUser = false;
    boolean anyAnswer = false;
    for (ChatMessage m : conversation) {
      if (m.role() == ChatRole.USER && m.origin() == MessageOrigin.USER) {
        anyUser = true;
        if (unseen == null && !seen.test(m.id())) {
          unseen = m;
        }
      } else if (m.origin() == MessageOrigin.MODEL) {
        anyAnswer = true;
      }
    }
    String warning;
    if (unseen != null) {
      warning =
          "hook "
              + hookId
              + ": user message "
              + unseen.id()
              + " was not in the chat service's messages() when beforeSendLoop fired, so the"
              + " model answered it without memories. A ChatService must show the user's message"
              + " in messages() before it fires the beforeSendLoop callbacks (see ChatService's"
              + " Javadoc). Warned once per hook.";
    } else if (!anyUser && anyAnswer) {
      warning =
          "hook "
              + hookId
              + ": the model answered, but the chat service's messages() holds no user message"
              + " of USER role and USER origin, so the hook had nothing to recall for. A"
              + " ChatService must show the user's input as such a message (see ChatService's"
              + " Javadoc). Warned once per hook.";
    } else {
      return null;
    }
    if (warned.compareAndSet(false, true)) {
      LOG.warn(warning);
      this.warning = warning;
      return warning;
    }
    return null;
  }

  /** The warning this hook logged, or null if none. */
  String warning() {
    return warning;
  }
}
