package dev.memhook.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.memhook.api.chat.Transcript;
import java.util.List;

/**
 * A LangChain4j {@link ChatMemory} as the kit's {@link Transcript}: what the model is sent, kept
 * (and perhaps windowed) by the application's memory.
 *
 * <p>Thread-safe: every call is synchronized on this object, since AiServices writes the memory
 * (through {@link AiServicesWrites}) as well as the kit.
 */
final class ChatMemoryTranscript implements Transcript<ChatMessage> {

  private final ChatMemory memory;

  ChatMemoryTranscript(ChatMemory memory) {
    this.memory = memory;
  }

  @Override
  public synchronized List<ChatMessage> messages() {
    return memory.messages();
  }

  @Override
  public synchronized void add(ChatMessage message) {
    memory.add(message);
  }

  @Override
  public synchronized void set(List<ChatMessage> messages) {
    memory.set(messages);
  }

  /** Empties the memory and returns what it held. */
  synchronized List<ChatMessage> clear() {
    List<ChatMessage> held = List.copyOf(memory.messages());
    memory.clear();
    return held;
  }

  @Override
  public String toString() {
    return "ChatMemoryTranscript[" + memory.id() + "]";
  }
}
