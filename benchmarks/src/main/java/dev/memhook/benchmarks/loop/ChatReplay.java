package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replays a session as a chat host would live it: one new service lifetime, a {@link
 * FakeChatService} hooked with {@link MemoryService#hookInto} (capture on, into the session's id),
 * and per prompt one send whose model replies are scripted from the events that follow it: each
 * tool event a reply calling that tool (a registered tool that answers with the event's output as
 * text), with the assistant texts before it; the assistant texts after the last tool the final
 * reply. Events before a session's first prompt answer a user message {@value #CONTINUE}. Then the
 * hook is closed, capture flushed, the store's census taken and the service closed; no session end
 * is posted, as a chat host posts none. Stateless.
 */
final class ChatReplay {

  /** The user message events before a session's first prompt answer. */
  static final String CONTINUE = "continue";

  private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {};

  private ChatReplay() {}

  /** One user message and the events that answer it. */
  record Turn(String prompt, List<LoopData.Event> answer) {
    Turn {
      answer = List.copyOf(answer);
    }
  }

  /** The turns of {@code session}: each prompt and the events up to the next one. */
  static List<Turn> turns(LoopData.Session session) {
    List<Turn> turns = new ArrayList<>();
    String prompt = null;
    List<LoopData.Event> answer = new ArrayList<>();
    for (LoopData.Event e : session.events()) {
      if (e instanceof LoopData.Prompt p) {
        if (prompt != null || !answer.isEmpty()) {
          turns.add(new Turn(prompt == null ? CONTINUE : prompt, answer));
        }
        prompt = p.text();
        answer = new ArrayList<>();
      } else {
        answer.add(e);
      }
    }
    turns.add(new Turn(prompt == null ? CONTINUE : prompt, answer));
    return turns;
  }

  /** Replays {@code session} into the store in {@code dir}; see the class comment. */
  static StoreCensus replay(
      LoopData.Session session, Path dir, Clock clock, LoopServices services) {
    Map<String, String> outputs = new ConcurrentHashMap<>();
    FakeChatService chat = FakeChatService.builder().maxLoopsPerSend(1000).build();
    Set<String> registered = new HashSet<>();
    try (MemoryService memory = services.open(dir, clock)) {
      MemoryHook hook =
          memory.hookInto(chat, services.hookOptions(MemoryListener.NONE, session.id()));
      for (Turn turn : turns(session)) {
        for (ModelReply reply : replies(turn, outputs)) {
          for (ToolCall call : reply.toolCalls()) {
            if (registered.add(call.toolName())) {
              chat.registerTool(
                  new ToolDefinition(call.toolName(), "a tool of the replayed session", "{}"),
                  c -> CompletableFuture.completedFuture(ToolResult.success(outputs.get(c.id()))));
            }
          }
          chat.scriptReplies(reply);
        }
        await(chat.sendUser(turn.prompt()).toCompletableFuture(), "session " + session.id());
      }
      hook.close(); // detached before the flush, so everything it captured is stored
      if (!memory.capture().flush(LoopServices.FLUSH_TIMEOUT)) {
        throw new IllegalStateException(
            "capture did not store session "
                + session.id()
                + " within "
                + LoopServices.FLUSH_TIMEOUT);
      }
      return StoreCensus.of(memory);
    }
  }

  /** The scripted replies of {@code turn}; each tool call's output is put in {@code outputs}. */
  static List<ModelReply> replies(Turn turn, Map<String, String> outputs) {
    List<ModelReply> replies = new ArrayList<>();
    ModelReply.Builder current = ModelReply.builder();
    for (LoopData.Event e : turn.answer()) {
      if (e instanceof LoopData.Assistant a) {
        current.assistant(a.text());
      } else if (e instanceof LoopData.Tool t) {
        current.toolCall(toolName(t.tool()), HookReplay.JSON.convertValue(t.input(), ARGUMENTS));
        ModelReply reply = current.build();
        for (ToolCall call : reply.toolCalls()) {
          outputs.put(call.id(), t.outputText());
        }
        replies.add(reply);
        current = ModelReply.builder();
      }
    }
    replies.add(current.build());
    return replies;
  }

  /** {@code tool} as a valid tool name: characters outside {@code [A-Za-z0-9_-]} become '_'. */
  static String toolName(String tool) {
    String name = tool.replaceAll("[^A-Za-z0-9_-]", "_");
    return name.length() > 64 ? name.substring(0, 64) : name;
  }

  /** Waits for {@code send}, failing with {@code what} if it fails or takes over two minutes. */
  static void await(CompletableFuture<Void> send, String what) {
    try {
      send.get(2, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted in " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("a turn of " + what + " did not complete", e);
    }
  }
}
