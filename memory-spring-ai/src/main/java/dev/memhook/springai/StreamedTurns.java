package dev.memhook.springai;

import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The advisor's streaming path. A stream gets the same preparation as a call; its {@code afterSend}
 * callbacks run when it completes, and a resend they ask for is not done (the answer has already
 * reached the user): the pair goes with the conversation's next call instead.
 *
 * <p>The blocking steps (opening the view, taking the conversation's turn, the before-loop
 * callbacks, the after-send callbacks) run on {@link Schedulers#boundedElastic()}. The
 * conversation's use and its turn, taken before the preparation, are given back exactly once,
 * whenever the stream terminates or is cancelled, during the preparation included. Thread-safe.
 */
final class StreamedTurns {

  // logs under the advisor's name, which is the one hosts know and configure
  private static final Logger LOG = LoggerFactory.getLogger(MemhookAdvisor.class);

  private final Conversations conversations;
  private final LoopPhases phases;

  StreamedTurns(Conversations conversations, LoopPhases phases) {
    this.conversations = Objects.requireNonNull(conversations, "conversations");
    this.phases = Objects.requireNonNull(phases, "phases");
  }

  /** The streamed reply to {@code request}, with memory, or passed through when memory fails. */
  Flux<ChatClientResponse> advise(ChatClientRequest request, StreamAdvisorChain chain) {
    // Flux.using gives the conversation and its turn back exactly once however the stream ends:
    // complete, error, or a cancel at any moment after they were taken, preparation included
    return Flux.using(
            () -> {
              Optional<Conversations.InCall> inCall =
                  Optional.ofNullable(conversations.conversationFor(request));
              if (inCall.isPresent()) {
                try {
                  inCall.get().chat().beginTurn(PromptAssembly.lastUserMessage(request.prompt()));
                } catch (RuntimeException e) {
                  inCall.get().release();
                  throw e;
                }
              }
              return inCall;
            },
            inCall ->
                inCall.isEmpty()
                    ? chain.nextStream(request)
                    : Mono.fromCallable(
                            () -> phases.beforeModelSafely(inCall.get().chat(), request))
                        .flatMapMany(prepared -> streamTurn(inCall.get().chat(), prepared, chain)),
            inCall -> inCall.ifPresent(this::giveBack))
        .subscribeOn(Schedulers.boundedElastic());
  }

  /** Ends the conversation's turn, lets its next call in, and ends this call's use of it. */
  private void giveBack(Conversations.InCall inCall) {
    try {
      inCall.chat().endTurn();
    } finally {
      inCall.release();
    }
  }

  private Flux<ChatClientResponse> streamTurn(
      ConversationChat chat, ChatClientRequest prepared, StreamAdvisorChain chain) {
    StringBuilder text = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    Mono<ChatClientResponse> afterStream =
        Mono.<ChatClientResponse>fromRunnable(
                () -> {
                  if (phases.afterReply(chat, reasoning.toString(), text.toString())) {
                    LOG.debug(
                        "Memhook: a resend was asked for in streamed conversation {}; the injected"
                            + " memories go with its next call",
                        chat.conversationId());
                  }
                })
            .subscribeOn(Schedulers.boundedElastic());
    phases.submit(chat, prepared);
    return chain
        .nextStream(prepared)
        .doOnNext(
            chunk -> {
              PromptAssembly.readReply(chunk.chatResponse(), text, reasoning);
            })
        .concatWith(afterStream);
  }
}
