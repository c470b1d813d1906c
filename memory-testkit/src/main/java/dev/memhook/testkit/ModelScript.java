package dev.memhook.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A scripted model for testing a chat service on any chat stack: it answers each request with the
 * next scripted {@link ModelReply}, or with its fallback once the script is empty, and records
 * every request it received.
 *
 * <p>A {@link ChatHarness} wraps it in its stack's model type (a LangChain4j {@code ChatModel}, a
 * Spring AI {@code ChatModel}, …), translating requests into {@link ModelRequest}s and replies
 * back.
 *
 * <p>Thread-safe.
 */
public final class ModelScript {

  private final Function<ModelRequest, ModelReply> fallback;
  private final Deque<ModelReply> script = new ArrayDeque<>();
  private final List<ModelRequest> requests = new ArrayList<>();

  private ModelScript(Function<ModelRequest, ModelReply> fallback) {
    this.fallback = fallback;
  }

  /** A script whose fallback answers "ok". */
  public static ModelScript create() {
    return new ModelScript(request -> ModelReply.text("ok"));
  }

  /** A script whose fallback is {@code fallback}; it must not return null. */
  public static ModelScript withFallback(Function<ModelRequest, ModelReply> fallback) {
    return new ModelScript(Objects.requireNonNull(fallback, "fallback"));
  }

  /** Adds replies to the end of the script, in order. */
  public ModelScript then(ModelReply... replies) {
    synchronized (script) {
      for (ModelReply r : replies) {
        script.addLast(Objects.requireNonNull(r, "reply"));
      }
    }
    return this;
  }

  /** Records {@code request} and answers it. */
  public ModelReply reply(ModelRequest request) {
    Objects.requireNonNull(request, "request");
    ModelReply scripted;
    synchronized (script) {
      requests.add(request);
      scripted = script.pollFirst();
    }
    return scripted != null
        ? scripted
        : Objects.requireNonNull(fallback.apply(request), "the fallback returned null");
  }

  /** Every request received so far, in order. */
  public List<ModelRequest> requests() {
    synchronized (script) {
      return List.copyOf(requests);
    }
  }
}
