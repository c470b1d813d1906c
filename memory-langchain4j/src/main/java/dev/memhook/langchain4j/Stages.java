package dev.memhook.langchain4j;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * Waiting on completion stages and reading their failures; shared by the loop, tools, callbacks.
 */
final class Stages {

  private Stages() {}

  /** Waits for a stage that never completes exceptionally. */
  static <T> T await(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }

  /** The failure inside the {@link CompletionException} or {@link ExecutionException} wrappers. */
  static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
