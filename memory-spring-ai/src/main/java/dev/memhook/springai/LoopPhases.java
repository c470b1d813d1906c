package dev.memhook.springai;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * The hook's two phases around each model call of a turn, shared by the advisor's call and stream
 * paths: before the call, the {@code beforeSendLoop} callbacks run and the request gets the
 * injected pairs and the view's tools; after it, the reply joins the view and the {@code afterSend}
 * callbacks run.
 *
 * <p>The view's kit runs each phase's callbacks and awaits them for at most the callback timeout; a
 * callback that fails or takes longer is logged and the call goes on without it. A memory failure
 * here is logged and the call goes on without memories. The caller holds the conversation's turn.
 * Thread-safe; stateless apart from the options types it has warned about.
 */
final class LoopPhases {

  private static final Logger LOG = LoggerFactory.getLogger(LoopPhases.class);

  private final Set<Class<?>> warnedOptions = ConcurrentHashMap.newKeySet();

  /** {@link #beforeModel}, or the request unchanged if memory fails. */
  ChatClientRequest beforeModelSafely(ConversationChat.Turn turn, ChatClientRequest request) {
    ConversationChat chat = turn.chat();
    try {
      return beforeModel(turn, request);
    } catch (RuntimeException e) {
      LOG.warn(
          "Memhook: cannot prepare conversation {}; the call goes on without memories",
          chat.conversationId(),
          e);
      return request;
    }
  }

  /** Runs the before-loop callbacks and builds the request the model gets. */
  private ChatClientRequest beforeModel(ConversationChat.Turn turn, ChatClientRequest request) {
    ConversationChat chat = turn.chat();
    turn.startLoop();
    Prompt prompt = request.prompt();
    List<Message> messages = turn.withPairs(prompt.getInstructions());
    if (!PromptAssembly.takesTools(prompt.getOptions()) && !chat.toolCallbacks().isEmpty()) {
      cannotOfferTools(prompt.getOptions(), chat);
    }
    ChatOptions options = PromptAssembly.withTools(prompt.getOptions(), chat);
    return request.mutate().prompt(new Prompt(messages, options)).build();
  }

  /**
   * Warns, once per options type, that the model cannot be offered the memory tool: pairs still
   * reach it, but it cannot fetch a memory in full, and nothing else would say so.
   */
  private void cannotOfferTools(ChatOptions options, ConversationChat chat) {
    Class<?> type = options == null ? Void.class : options.getClass();
    if (warnedOptions.add(type)) {
      LOG.warn(
          "Memhook: the model's options ({}) are not ToolCallingChatOptions, so the model cannot"
              + " receive the tools Memhook offers ({}): injected memories still reach it as"
              + " summaries, but it cannot fetch one in full with get_memory. Use a ChatModel"
              + " whose options implement ToolCallingChatOptions, as Spring AI's providers' do."
              + " Said once per options type.",
          options == null ? "none" : type.getName(),
          chat.toolCallbacks().stream().map(t -> t.getToolDefinition().name()).toList());
    }
  }

  /**
   * Reports the prepared request to the view's {@code onRequestSubmitted} listeners; the caller
   * hands it down the chain next. A failure to report is logged: the call goes on.
   */
  void submit(ConversationChat.Turn turn, ChatClientRequest prepared) {
    ConversationChat chat = turn.chat();
    try {
      turn.submitted(prepared.prompt().getInstructions());
    } catch (RuntimeException e) {
      LOG.warn(
          "Memhook: cannot report a request of conversation {}; the call goes on",
          chat.conversationId(),
          e);
    }
  }

  /**
   * Appends the reply to the view and runs the after-send callbacks.
   *
   * @return whether a resend was asked for and may run
   */
  boolean afterModel(ConversationChat.Turn turn, ChatResponse response) {
    StringBuilder text = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    PromptAssembly.readReply(response, text, reasoning);
    return afterReply(turn, reasoning.toString(), text.toString());
  }

  /**
   * Appends a reply already read (a whole stream's) to the view and runs the after-send callbacks.
   *
   * @return whether a resend was asked for and may run
   */
  boolean afterReply(ConversationChat.Turn turn, String reasoning, String text) {
    ConversationChat chat = turn.chat();
    try {
      return turn.finishLoop(reasoning, text);
    } catch (RuntimeException e) {
      LOG.warn(
          "Memhook: cannot finish a loop of conversation {}; the call goes on without a resend",
          chat.conversationId(),
          e);
      return false;
    }
  }
}
