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

  private static final Logger LOG = LoggerFactory.getLogger(StreamedTurns.class);

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
            () -> Optional.ofNullable(begin(request)),
            held ->
                held.isEmpty()
                    ? chain.nextStream(request)
                    : Mono.fromCallable(() -> phases.beforeModelSafely(held.get().turn(), request))
                        .flatMapMany(prepared -> streamTurn(held.get().turn(), prepared, chain)),
            held -> held.ifPresent(Held::giveBack))
        .subscribeOn(Schedulers.boundedElastic());
  }

  /** A stream's use of its conversation and its turn, given back together. */
  private record Held(Conversations.InCall inCall, ConversationChat.Turn turn) {

    /** Ends the turn, which lets the conversation's next call in, and this call's use of it. */
    void giveBack() {
      try {
        turn.close();
      } finally {
        inCall.release();
      }
    }
  }

  /** The request's conversation, held, with its turn begun; null to pass the stream through. */
  private Held begin(ChatClientRequest request) {
    Conversations.InCall inCall = conversations.conversationFor(request);
    if (inCall == null) {
      return null;
    }
    try {
      return new Held(
          inCall, inCall.chat().beginTurn(PromptAssembly.lastUserMessage(request.prompt())));
    } catch (RuntimeException e) {
      inCall.release();
      throw e;
    }
  }

  private Flux<ChatClientResponse> streamTurn(
      ConversationChat.Turn turn, ChatClientRequest prepared, StreamAdvisorChain chain) {
    StringBuilder text = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    Mono<ChatClientResponse> afterStream =
        Mono.<ChatClientResponse>fromRunnable(
                () -> {
                  if (phases.afterReply(turn, reasoning.toString(), text.toString())) {
                    LOG.debug(
                        "Memhook: a resend was asked for in streamed conversation {}; the injected"
                            + " memories go with its next call",
                        turn.chat().conversationId());
                  }
                })
            .subscribeOn(Schedulers.boundedElastic());
    phases.submit(turn, prepared);
    return chain
        .nextStream(prepared)
        .doOnNext(
            chunk -> {
              PromptAssembly.readReply(chunk.chatResponse(), text, reasoning);
            })
        .concatWith(afterStream);
  }
}
