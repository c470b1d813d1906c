package dev.memhook.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.HostedChat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What AiServices writes into the chat memory of a {@link LangChain4jChatService} view, and which
 * of it the conversation logs. Messages AiServices adds are logged as the host's own ({@link
 * HostedChat#record}), except three, which go to the memory only, so nothing is logged twice: the
 * reply the view handed over (the send loop logged it), the re-adds after a {@code clear()}
 * (LangChain4j clears a memory to re-add all but one of its messages; recognised in order, by
 * equality), and a repeated system message.
 *
 * <p>Thread-safe: one lock guards what was handed over and what was cleared.
 */
final class AiServicesWrites {

  private final HostedChat<ChatMessage> chat;
  private final ChatMemoryTranscript memory;
  private final Object lock = new Object();

  /** The reply handed to AiServices, whose add of it is skipped; guarded by {@link #lock}. */
  private AiMessage handedOver;

  /**
   * What the last {@code clear()} took out of the memory and has not been added back yet, oldest
   * first; forgotten at the next other add or model call. Guarded by {@link #lock}.
   */
  private final List<ChatMessage> cleared = new ArrayList<>();

  AiServicesWrites(HostedChat<ChatMessage> chat, ChatMemoryTranscript memory) {
    this.chat = chat;
    this.memory = memory;
  }

  /**
   * Adds a message AiServices put in the chat memory.
   *
   * @return false if it was the reply handed over, which is in the conversation already
   */
  boolean add(ChatMessage message) {
    Objects.requireNonNull(message, "message");
    synchronized (lock) {
      if (message == handedOver) {
        handedOver = null; // already in the conversation: the send loop appended it
        return false;
      }
      if (!cleared.isEmpty() && cleared.get(0).equals(message)) {
        // putting back what a clear() took out: the memory gets it again, the log has it already
        cleared.remove(0);
        memory.add(message);
        return true;
      }
      cleared.clear();
      if (message instanceof SystemMessage system && isCurrentSystemMessage(system)) {
        memory.add(message); // the memory decides; the log records a system message once
        return true;
      }
    }
    chat.record(message);
    return true;
  }

  /** The chat memory's messages, as AiServices reads them. */
  List<ChatMessage> messages() {
    return memory.messages();
  }

  /** Replaces the chat memory's messages; the log is unchanged. */
  void set(Iterable<ChatMessage> messages) {
    List<ChatMessage> list = new ArrayList<>();
    messages.forEach(list::add);
    memory.set(list);
  }

  /** Empties the chat memory and remembers what it held, to recognise the re-adds. */
  void clear() {
    synchronized (lock) {
      cleared.clear();
      cleared.addAll(memory.clear());
      handedOver = null;
    }
  }

  /** A model call starts: what a clear() took out is no longer expected back. */
  void modelCallStarts() {
    synchronized (lock) {
      cleared.clear();
    }
  }

  /** Records the reply handed to AiServices, so that its add of it is skipped. */
  void handOver(AiMessage reply) {
    synchronized (lock) {
      handedOver = reply;
    }
  }

  /** Whether {@code system} is the last system message in the log. */
  private boolean isCurrentSystemMessage(SystemMessage system) {
    List<dev.memhook.api.chat.ChatMessage> log = chat.messages();
    for (int i = log.size() - 1; i >= 0; i--) {
      dev.memhook.api.chat.ChatMessage m = log.get(i);
      if (m.role() == ChatRole.SYSTEM) {
        return m.text().equals(system.text());
      }
    }
    return false;
  }
}
