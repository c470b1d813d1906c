package dev.memhook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link FakeChatService#toolCalls}, read while a send runs on another thread. */
class FakeChatServiceToolCallsTest {

  @Test
  void toolCalls_whileASendFlushesTheQueue_neverMissesNorRepeatsACall() throws Exception {
    ExecutorService sender = Executors.newSingleThreadExecutor();
    try {
      for (int round = 0; round < 1_000; round++) {
        FakeChatService chat = FakeChatService.create();
        chat.registerTool(
            new ToolDefinition("probe", "echoes", "{\"type\":\"object\"}"),
            call -> CompletableFuture.completedFuture(ToolResult.success("echo")));
        chat.injectToolCall("probe", Map.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
        CountDownLatch start = new CountDownLatch(1);
        Future<?> send =
            sender.submit(
                () -> {
                  start.await();
                  return chat.sendUser("hi").toCompletableFuture().get(30, TimeUnit.SECONDS);
                });
        start.countDown();
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
        while (System.nanoTime() < until) {
          // the queued pair joins the conversation during the send: it is in one or the other
          assertEquals(1, chat.toolCalls("probe").size(), "round " + round);
        }
        send.get(30, TimeUnit.SECONDS);
        assertEquals(1, chat.toolCalls("probe").size());
      }
    } finally {
      sender.shutdownNow();
    }
  }
}
