package dev.memhook.api.chat;

import java.util.concurrent.CompletionStage;

/**
 * A lifecycle callback on a {@link ChatService}. It returns at once with a stage that completes
 * when its work is done, so the host thread is never blocked by memory work; the chat service waits
 * for the stage before going on with the send loop.
 */
@FunctionalInterface
public interface ChatCallback {
  /** Starts the callback's work and returns the stage that completes when it is done. */
  CompletionStage<Void> run();
}
