package dev.memhook.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import java.util.List;

/**
 * The chat memory AiServices sees: the application's memory, behind the memory id's conversation.
 * It holds no conversation itself, since AiServices keeps it as long as it likes: each use finds
 * the held one, or opens a fresh one over the same application memory after an eviction.
 *
 * <p>Each use that precedes a model call of the conversation (adding the user's message or a tool
 * result, setting the messages, reading them) records the conversation for this thread with {@link
 * HookedChatModel#setCurrent}; adding the turn's answer, which no model call of this conversation
 * follows, clears the record.
 *
 * <p>Thread-safe as far as its registry and conversation are; one conversation must not be used by
 * two AiServices calls at once.
 */
final class MemhookChatMemory implements ChatMemory {
  private final Object memoryId;
  private final ChatMemory shortTerm;
  private final AiServicesConversations conversations;
  private final HookedChatModel model;

  MemhookChatMemory(
      Object memoryId,
      ChatMemory shortTerm,
      AiServicesConversations conversations,
      HookedChatModel model) {
    this.memoryId = memoryId;
    this.shortTerm = shortTerm;
    this.conversations = conversations;
    this.model = model;
  }

  private AiServicesConversation conversation() {
    return conversations.use(memoryId, shortTerm);
  }

  @Override
  public Object id() {
    return shortTerm.id();
  }

  @Override
  public void add(ChatMessage message) {
    AiServicesConversation conversation = conversation();
    if (conversation.chat().addFromAiServices(message)) {
      model.setCurrent(conversation);
    } else {
      model.clearCurrent(); // the turn's answer: no model call of this conversation follows it
    }
  }

  @Override
  public void set(Iterable<ChatMessage> messages) {
    AiServicesConversation conversation = conversation();
    model.setCurrent(conversation);
    conversation.chat().setFromAiServices(messages);
  }

  @Override
  public List<ChatMessage> messages() {
    AiServicesConversation conversation = conversation();
    model.setCurrent(conversation);
    return conversation.chat().memoryMessages();
  }

  @Override
  public void clear() {
    conversation().chat().clearFromAiServices();
  }
}
