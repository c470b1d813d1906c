package dev.memhook.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.ChatRequestOptions;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.Objects;
import java.util.Set;

/**
 * The model AiServices calls: a decorator of the application's model that runs a conversation's
 * send loop ({@link LangChain4jChatService#chatForAiServices}) around each model call of that
 * conversation. Its parameters, provider and capabilities are the application model's.
 *
 * <h2>Which conversation</h2>
 *
 * A model call carries no memory id, so the decorator finds the conversation through the chat
 * memory: AiServices reads or writes the memory on its own thread right before each model call, and
 * the wrapper ({@link MemhookChatMemory}) records the conversation for that thread with {@link
 * #setCurrent}. A call takes the record and clears it; a call with no record goes straight to the
 * model. An AiServices call that ends without a model call after its last use of the memory (its
 * tool returned immediately) would leave the record behind for an unrelated model call on the same
 * thread, so the end of every AiServices call clears it too ({@link
 * AiServicesConversations#callListeners()}).
 *
 * <p>Thread-safe; the record is per thread.
 */
final class HookedChatModel implements ChatModel {
  private final ChatModel model;

  /** The conversation AiServices is working on, on this thread; set by the chat memory wrapper. */
  private final ThreadLocal<AiServicesConversation> current = new ThreadLocal<>();

  HookedChatModel(ChatModel model) {
    this.model = model;
  }

  /** Makes the next model call on this thread one of {@code conversation}. */
  void setCurrent(AiServicesConversation conversation) {
    current.set(conversation);
  }

  /** Makes the next model call on this thread go straight to the model. */
  void clearCurrent() {
    current.remove();
  }

  @Override
  public ChatResponse chat(ChatRequest request) {
    return chat(request, ChatRequestOptions.EMPTY);
  }

  @Override
  public ChatResponse chat(ChatRequest request, ChatRequestOptions requestOptions) {
    Objects.requireNonNull(request, "request");
    AiServicesConversation conversation = current.get();
    current.remove();
    if (conversation == null) {
      return model.chat(request, requestOptions);
    }
    return conversation.chat().chatForAiServices(request, r -> model.chat(r, requestOptions));
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    return chat(request);
  }

  @Override
  public ChatRequestParameters defaultRequestParameters() {
    return model.defaultRequestParameters();
  }

  @Override
  public ModelProvider provider() {
    return model.provider();
  }

  @Override
  public Set<Capability> supportedCapabilities() {
    return model.supportedCapabilities();
  }

  @Override
  public String toString() {
    return "MemhookLangChain4j.chatModel[" + model + "]";
  }
}
