package dev.memhook.springai;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.ConversationRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;

/**
 * A Spring AI {@code ChatClient} advisor that gives a conversation long-term memory by applying
 * Memhook's hook contract to each call.
 *
 * <h2>What it does</h2>
 *
 * Per conversation id (the advisor context's {@link ChatMemory#CONVERSATION_ID}, or the {@linkplain
 * Builder#defaultConversationId default conversation} when absent) the advisor keeps a {@link
 * ChatService} view of the conversation with one {@link MemoryService#hookInto(ChatService,
 * HookOptions) hook} attached; recall, the relevance gate, at-most-once injection and capture are
 * the hook's, not re-implemented here. Every conversation is hooked with the same {@linkplain
 * Builder#hookOptions options}, so all of them recall from and capture into the same scopes, unless
 * {@link Builder#hookOptionsByConversationId} gives each its own (a user's or a tenant's). For each
 * call:
 *
 * <ol>
 *   <li>the prompt's last user message joins the view, and the {@code beforeSendLoop} callbacks
 *       run, awaited for at most the {@linkplain Builder#callbackTimeout callback timeout};
 *   <li>every {@code get_memory} pair injected in the conversation so far (an assistant message
 *       with one tool call, then the tool response) is placed in the prompt right before the user
 *       message of the turn it was injected for (the host kit's {@link
 *       dev.memhook.api.chat.HostedChat.Placement#AT_ITS_TURN}), and the view's tools ({@code
 *       get_memory} among them) are offered to the model as {@link ToolCallback}s, which Spring
 *       AI's tool loop ({@code ToolCallingAdvisor}, inside this advisor) executes; a prompt whose
 *       options are not {@code ToolCallingChatOptions} cannot carry them, which the advisor logs as
 *       a warning once per options type;
 *   <li>the rest of the chain runs; the reply (its text, and its reasoning when the provider puts
 *       it in the message metadata) joins the view and the {@code afterSend} callbacks run;
 *   <li>if one of them asked for a resend, the rest of the chain runs once more ({@link
 *       CallAdvisorChain#copy}) with the new pair before the user's message, at most {@linkplain
 *       Builder#maxLoopsPerCall} loops in all; the caller gets the last reply.
 * </ol>
 *
 * A stream gets the same preparation; its {@code afterSend} callbacks run when it completes, and a
 * resend they ask for is not done (the answer has already reached the user): the pair goes with the
 * conversation's next call instead.
 *
 * <h2>Receipts and delivery</h2>
 *
 * Each request the advisor hands to the rest of the chain (the first of a call, each resend, a
 * stream's) is reported to the view's {@link ChatService#onRequestSubmitted} listeners right before
 * it is handed on, with the prompt's messages and the injected pairs where they were placed, so a
 * hook's receipts say which requests carried each pair. It is the request the advisor hands on, not
 * each model call: Spring AI's {@code ToolCallingAdvisor}, inside this advisor, may call the model
 * more than once with it.
 *
 * <h2>How many conversations</h2>
 *
 * The advisor holds at most {@linkplain Builder#maxConversations maxConversations} conversations
 * ({@link #DEFAULT_MAX_CONVERSATIONS} by default). When a new conversation id would exceed it, the
 * least recently used conversation is ended exactly as {@link #endConversation} ends it: its hook
 * is disposed and its view and injected pairs are dropped. A later call with that id starts a fresh
 * conversation, whose new hook may inject the same memories once more. A conversation in a call, or
 * waiting for its turn, is never evicted: if every other conversation is in a call the advisor
 * holds more than the bound for a while, and says so once in a warning. Hosts that know when a
 * conversation ends should still call {@link #endConversation}.
 *
 * <h2>Order</h2>
 *
 * The default order, {@link #DEFAULT_ORDER}, puts the advisor inside Spring AI's chat-memory
 * advisors (which add the short-term history it anchors pairs in) and outside the {@code
 * ToolCallingAdvisor} (so one user turn is one send loop, and the tools it offers are executed).
 *
 * <h2>Contract</h2>
 *
 * A memory failure (a closed service, a recall timeout, a failing callback) never fails the call:
 * it is logged and the call goes on without memories. Errors of the model or of other advisors pass
 * through unchanged. Calls of one conversation are serialised; different conversations run in
 * parallel. Thread-safe. Null arguments are rejected with {@link NullPointerException}. The advisor
 * does not own the memory service: {@link #close()} detaches every hook and leaves the service
 * open.
 */
public final class MemhookAdvisor implements CallAdvisor, StreamAdvisor, AutoCloseable {

  /**
   * The default order: 50 after {@link Advisor#DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER}, so inside a
   * {@code MessageChatMemoryAdvisor} at its default order and outside Spring AI's {@code
   * ToolCallingAdvisor} (100 after the memory order).
   */
  public static final int DEFAULT_ORDER = Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER + 50;

  /** The conversation a request without a conversation id belongs to, by default. */
  public static final String DEFAULT_CONVERSATION_ID = "default";

  /**
   * Default {@link Builder#callbackTimeout}: 2 s. The hook bounds its own recall (250 ms by
   * default); this is the safety net for a callback that never completes, long enough never to cut
   * a healthy recall short.
   */
  public static final Duration DEFAULT_CALLBACK_TIMEOUT = Duration.ofSeconds(2);

  /**
   * Default {@link Builder#maxLoopsPerCall}: 3, the first answer and up to two resends; by the
   * hook's contract a resend loop ends once nothing new is recalled, which is usually one resend.
   */
  public static final int DEFAULT_MAX_LOOPS_PER_CALL = 3;

  /**
   * Default {@link Builder#maxConversations}: 10,000. Each held conversation keeps its view (the
   * whole conversation as the advisor saw it), its injected pairs and a live hook, so the bound is
   * what keeps a web application with a conversation per user or per request from growing without
   * limit; 10,000 is far more than the conversations one instance has in flight, so an evicted
   * conversation is one nobody has used for a while.
   */
  public static final int DEFAULT_MAX_CONVERSATIONS =
      ConversationRegistry.DEFAULT_MAX_CONVERSATIONS;

  /** The largest {@link Builder#maxConversations}: 1,000,000. */
  public static final int MAX_MAX_CONVERSATIONS = ConversationRegistry.MAX_MAX_CONVERSATIONS;

  private static final Logger LOG = LoggerFactory.getLogger(MemhookAdvisor.class);

  private final int order;
  private final int maxLoopsPerCall;
  private final Conversations conversations;
  private final LoopPhases phases;
  private final StreamedTurns streams;

  private MemhookAdvisor(Builder b) {
    this.order = b.order;
    this.maxLoopsPerCall = b.maxLoopsPerCall;
    this.conversations =
        new Conversations(
            b.service,
            b.hookOptions,
            b.callbackTimeout,
            b.defaultConversationId,
            b.maxConversations,
            b.maxLoopsPerCall);
    this.phases = new LoopPhases();
    this.streams = new StreamedTurns(conversations, phases);
  }

  /** A builder for an advisor hooking {@code service} into each conversation. */
  public static Builder builder(MemoryService service) {
    return new Builder(Objects.requireNonNull(service, "service"));
  }

  /** A builder for an advisor that keeps conversation views but attaches no hook (for tests). */
  static Builder withoutHooks() {
    return new Builder(null);
  }

  // ---- Advisor -----------------------------------------------------------------------------

  @Override
  public String getName() {
    return "MemhookAdvisor";
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(chain, "chain");
    Conversations.InCall inCall = conversations.conversationFor(request);
    if (inCall == null) {
      return chain.nextCall(request);
    }
    try {
      return adviseTurn(inCall.chat(), request, chain);
    } finally {
      inCall.release();
    }
  }

  private ChatClientResponse adviseTurn(
      ConversationChat chat, ChatClientRequest request, CallAdvisorChain chain) {
    try (ConversationChat.Turn turn =
        chat.beginTurn(PromptAssembly.lastUserMessage(request.prompt()))) {
      ChatClientResponse response = null;
      for (int loop = 1; loop <= maxLoopsPerCall; loop++) {
        ChatClientRequest prepared = phases.beforeModelSafely(turn, request);
        if (response == null) {
          phases.submit(turn, prepared);
          response = chain.nextCall(prepared);
        } else {
          try {
            CallAdvisorChain rest = chain.copy(this);
            phases.submit(turn, prepared);
            response = rest.nextCall(prepared);
          } catch (RuntimeException e) {
            // the first answer stands: a memory resend must not fail the user's call
            LOG.warn(
                "Memhook: resend in conversation {} failed; keeping the first answer",
                chat.conversationId(),
                e);
            break;
          }
        }
        if (!phases.afterModel(turn, response.chatResponse())) {
          break;
        }
      }
      return response;
    }
  }

  @Override
  public Flux<ChatClientResponse> adviseStream(
      ChatClientRequest request, StreamAdvisorChain chain) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(chain, "chain");
    return streams.advise(request, chain);
  }

  // ---- conversations -----------------------------------------------------------------------

  /**
   * The view of a conversation, created (with its hook attached) on first use. Hosts may register
   * their own callbacks and tools on it; tools registered here are offered to the model in the
   * conversation's calls. Registrations go with the view when the conversation is ended or evicted
   * by the {@linkplain Builder#maxConversations bound}; this call counts as a use for the bound.
   *
   * @throws IllegalStateException if the advisor is closed, or the hook cannot be attached (for
   *     example, the memory service is closed)
   */
  public ChatService chatService(String conversationId) {
    return conversations.chatService(conversationId);
  }

  /** The hook attached to a conversation the advisor has seen, if any. */
  public Optional<MemoryHook> hook(String conversationId) {
    return conversations.hook(conversationId);
  }

  /**
   * Forgets a conversation: detaches its hook and drops its view and injected pairs. A later call
   * with the same id starts a new conversation, whose new hook may inject the same memories again.
   * Does nothing for an unknown id. The {@linkplain Builder#maxConversations bound} ends the least
   * recently used idle conversation the same way.
   */
  public void endConversation(String conversationId) {
    conversations.end(conversationId);
  }

  /** The conversation ids the advisor holds a view of, in no particular order. */
  public Set<String> conversationIds() {
    return conversations.ids();
  }

  /**
   * Detaches every hook and drops every view; later calls pass through unchanged. Idempotent. The
   * memory service stays open: it is the host's.
   */
  @Override
  public void close() {
    conversations.close();
  }

  /**
   * Builds a {@link MemhookAdvisor}. Each setter may be called once and checks its argument at
   * once; {@link #hookOptions} and {@link #hookOptionsByConversationId} exclude each other. Not
   * thread-safe.
   */
  public static final class Builder {
    private final MemoryService service;
    private Function<String, HookOptions> hookOptions = conversationId -> HookOptions.defaults();
    private boolean hookOptionsSet;
    private int order = DEFAULT_ORDER;
    private Duration callbackTimeout = DEFAULT_CALLBACK_TIMEOUT;
    private int maxLoopsPerCall = DEFAULT_MAX_LOOPS_PER_CALL;
    private String defaultConversationId = DEFAULT_CONVERSATION_ID;
    private int maxConversations = DEFAULT_MAX_CONVERSATIONS;
    private final Set<String> set = new HashSet<>();

    private Builder(MemoryService service) {
      this.service = service;
    }

    /**
     * The options of every conversation's hook; default {@link HookOptions#defaults()}. Every
     * conversation recalls from and captures into the scopes they name, so conversations of
     * different users recall each other's memories; give each its own scope with {@link
     * #hookOptionsByConversationId} instead. When the options name no session, each conversation
     * captures into session {@code spring-ai-<conversation id>}.
     */
    public Builder hookOptions(HookOptions value) {
      Objects.requireNonNull(value, "hookOptions");
      setHookOptions("hookOptions", conversationId -> value);
      return this;
    }

    /**
     * The options of each conversation's hook, by conversation id: typically its own {@link
     * dev.memhook.api.Scope} when the id names a user or tenant, so conversations never recall each
     * other's memories. Called once per conversation opened (again after it was ended or evicted).
     * It must not return null; if it throws or returns null, the conversation's calls go on without
     * memory and a warning says why. When the options name no session, the conversation captures
     * into session {@code spring-ai-<conversation id>}.
     */
    public Builder hookOptionsByConversationId(Function<String, HookOptions> value) {
      setHookOptions(
          "hookOptionsByConversationId",
          Objects.requireNonNull(value, "hookOptionsByConversationId"));
      return this;
    }

    private void setHookOptions(String setter, Function<String, HookOptions> value) {
      once(setter);
      if (hookOptionsSet) {
        throw new IllegalStateException(
            "hookOptions and hookOptionsByConversationId exclude each other; set one of them");
      }
      this.hookOptions = value;
      this.hookOptionsSet = true;
    }

    /** The advisor's order; default {@link #DEFAULT_ORDER}. */
    public Builder order(int value) {
      once("order");
      this.order = value;
      return this;
    }

    /**
     * How long the advisor waits for the callbacks of one phase, and the model's call of a
     * registered tool, before it goes on without them; positive, at most 5 minutes; default {@link
     * #DEFAULT_CALLBACK_TIMEOUT}.
     */
    public Builder callbackTimeout(Duration value) {
      once("callbackTimeout");
      Objects.requireNonNull(value, "callbackTimeout");
      if (value.isNegative() || value.isZero() || value.compareTo(Duration.ofMinutes(5)) > 0) {
        throw new IllegalArgumentException(
            "callbackTimeout must be positive and at most 5 minutes, got " + value);
      }
      this.callbackTimeout = value;
      return this;
    }

    /**
     * The most requests one call hands down the chain, the first and its resends, 1 to 10; default
     * 3. Spring AI's tool loop, inside this advisor, calls the model once more per round of tool
     * calls with each of them; this does not bound those rounds.
     */
    public Builder maxLoopsPerCall(int value) {
      once("maxLoopsPerCall");
      if (value < 1 || value > 10) {
        throw new IllegalArgumentException("maxLoopsPerCall must be in [1, 10], got " + value);
      }
      this.maxLoopsPerCall = value;
      return this;
    }

    /** The conversation of requests without a conversation id; default {@code "default"}. */
    public Builder defaultConversationId(String value) {
      once("defaultConversationId");
      Objects.requireNonNull(value, "defaultConversationId");
      if (value.isBlank()) {
        throw new IllegalArgumentException("defaultConversationId must not be blank");
      }
      this.defaultConversationId = value;
      return this;
    }

    /**
     * The most conversations the advisor holds, 1 to {@link #MAX_MAX_CONVERSATIONS}; default {@link
     * #DEFAULT_MAX_CONVERSATIONS}. Opening one more ends the least recently used idle conversation
     * exactly as {@link MemhookAdvisor#endConversation} does; a conversation in a call (or waiting
     * for its turn) is never evicted, so while every other one is in a call the advisor holds more
     * than this, and logs a warning once.
     */
    public Builder maxConversations(int value) {
      once("maxConversations");
      if (value < 1 || value > MAX_MAX_CONVERSATIONS) {
        throw new IllegalArgumentException(
            "maxConversations must be in [1, " + MAX_MAX_CONVERSATIONS + "], got " + value);
      }
      this.maxConversations = value;
      return this;
    }

    private void once(String setter) {
      if (!set.add(setter)) {
        throw new IllegalStateException(
            setter + " was already set on this builder; each setter may be called once");
      }
    }

    /** Builds the advisor. Nothing is attached before a conversation's first call. */
    public MemhookAdvisor build() {
      return new MemhookAdvisor(this);
    }
  }
}
