package dev.memhook.core.internal.inject;

import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.chat.ChatMessage;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What happens to the messages of a recall that timed out: they are handed back to the next
 * callback of the same hook, which scans them again with its own new messages, once per message. A
 * recall that is only slow (a cold start, a busy machine) then costs the turn its memories for this
 * turn, not for good; a store that stays stalled is not asked again and again. Not thread-safe:
 * used under the hook's lock.
 */
final class RecallRetries {

  private final Set<String> retried = new HashSet<>();

  /**
   * Takes the messages of {@code fresh} not retried before out of {@code scanned}, so the next
   * callback scans them again.
   *
   * @return the exception to report: what happens to the messages, and what to do if it repeats
   */
  RecallTimeoutException handBack(List<ChatMessage> fresh, Set<String> scanned, Duration timeout) {
    int again = 0;
    for (ChatMessage m : fresh) {
      if (retried.add(m.id())) {
        scanned.remove(m.id());
        again++;
      }
    }
    String what;
    if (again == 0) {
      what = "; they had timed out before and are not recalled again";
    } else if (again == fresh.size()) {
      what = "; the next callback of this hook recalls for them again";
    } else {
      what = "; the next callback of this hook recalls for " + again + " of them again";
    }
    return new RecallTimeoutException(
        "recall took longer than "
            + timeout
            + " for "
            + fresh.size()
            + " message(s); the turn goes on without memories"
            + what
            + ". If this repeats, raise HookOptions.recallTimeout or give recall an executor with"
            + " more threads");
  }

  /** Whether the message {@code id} was handed back once: it was seen, its recall timed out. */
  boolean handedBack(String id) {
    return retried.contains(id);
  }
}
