package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook hook}: a coding agent's lifecycle hook. Reads one hook payload on standard input
 * ({@link HookPayload}), spools it for capture ({@link HookSpool}), and for {@code SessionStart}
 * and {@code UserPromptSubmit} answers on standard output with the agent's context-injection field,
 * {@code {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}}, holding the summaries
 * of the memories that matter, each with its id, each offered at most once per session ({@link
 * OfferedMemories}). Always exits 0: whatever fails is reported by {@link HookLog} and the agent's
 * step goes on.
 *
 * <p>What each answer holds: {@code SessionStart} the scope's standing memories ({@link
 * MemoryService#standing}: preferences, decisions, conventions, workflows and facts, latest
 * versions) within {@code --standing-chars}, whatever the session goes on to ask; {@code
 * UserPromptSubmit} what recall finds for the prompt within {@code --context-limit}, less what the
 * session was offered before, {@code SessionStart}'s standing memories included (each event is its
 * own process, so the offered ids are kept per session in the store directory). Both are cut to
 * {@code --context-chars} ({@link ContextBudget}: whole memories, in order), and each answer's use
 * of the budget is written to the hook log.
 *
 * <p>Tool events are only spooled, without opening the store: see {@link HookSpool} for why, and
 * for why every event is redacted before it is written. The other events open the store, take in
 * the spool, and close it, which also lets capture process what it was given. What an event does is
 * {@link AgentEvents}, shared with {@code memhook serve} ({@link ServeCommand}), which answers the
 * same events over HTTP from a process that holds the store and the model open.
 */
@Command(
    name = "hook",
    description =
        "Run as a coding agent's hook: read one hook payload (Claude Code's format, or the"
            + " --agent's own) on standard input, capture it, and print as"
            + " hookSpecificOutput.additionalContext (or the agent's own field), for"
            + " SessionStart, the scope's standing memories (preferences, decisions, conventions,"
            + " workflows, facts) and, for UserPromptSubmit, what recall finds for the prompt,"
            + " each memory once per session. Always exits 0; problems go to standard error and"
            + " DIR/hook.log.")
final class HookCommand implements Callable<Integer> {
  /** The largest payload read; a larger one is not captured. */
  static final int MAX_INPUT_BYTES = 16 * 1024 * 1024;

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "The scope captured into and recalled from. Default: ${DEFAULT-VALUE}.")
  Scope scope = Scope.DEFAULT;

  @Option(
      names = "--agent",
      paramLabel = "NAME",
      description =
          "The agent whose payload this is: claude-code (also Codex's and Gemini CLI's payloads),"
              + " codex, gemini, copilot or cursor. Default: claude-code.")
  String agent;

  @Option(
      names = "--event",
      paramLabel = "NAME",
      description =
          "The agent's name for the event, for agents whose payloads do not name it (GitHub"
              + " Copilot's). Default: the payload's hook_event_name.")
  String event;

  @Option(
      names = "--context-limit",
      paramLabel = "N",
      description =
          "At most N memories offered per prompt (UserPromptSubmit), 1-20. Default:"
              + " ${DEFAULT-VALUE}.")
  int contextLimit = AgentEvents.DEFAULT_CONTEXT_LIMIT;

  @Option(
      names = "--context-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the context one event injects (header and memory lines;"
              + " a memory that does not fit is left out whole, and offered again later), 1-"
              + ContextBudget.MAX_CHARS
              + ". Default: ${DEFAULT-VALUE}, Claude Code's own limit.")
  int contextChars = ContextBudget.DEFAULT_MAX_CHARS;

  /** The environment variable that sets {@code --standing-chars} when the option is not given. */
  static final String STANDING_CHARS_VARIABLE = "MEMHOOK_STANDING_CHARS";

  @Option(
      names = "--standing-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the standing memories (preferences, decisions,"
              + " conventions, workflows, facts) SessionStart offers; 0 offers none. Default: $"
              + STANDING_CHARS_VARIABLE
              + ", else 1000.")
  Integer standingChars;

  @Override
  public Integer call() {
    CliContext context = root.context();
    HookLog log = null;
    try {
      Path dir = store.directory(context);
      log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
      handle(context, dir, log);
    } catch (Exception | Error e) {
      // An Error too (a native library that will not load, a class missing from a broken jar):
      // a hook must not fail the agent's step with it. Logging may fail for the worst of them.
      String message = e instanceof CliException ? e.getMessage() : e.toString();
      if (log != null) {
        log.warn(message);
      } else {
        context.err().println("memhook hook: " + message);
      }
    }
    return ExitCode.OK;
  }

  private void handle(CliContext context, Path dir, HookLog log) throws IOException {
    AgentEvents events =
        new AgentEvents(
            dir,
            log,
            new AgentEvents.Settings(
                contextLimit,
                new ContextBudget(contextChars),
                standingChars,
                context.env().get(STANDING_CHARS_VARIABLE)));
    HookOrigin origin = HookOrigin.of(agent, event);
    Optional<AgentEvents.Event> read;
    try {
      read = events.read(readBounded(context.in()), origin);
    } catch (IllegalArgumentException e) { // the agent's input, not a fault of the hook
      log.warn(e.getMessage() + "; not captured");
      return;
    }
    if (read.isEmpty()) {
      return;
    }
    AgentEvents.Event event = read.get();
    events.spool(event, scope);
    if (!event.opensStore()) {
      return;
    }
    MemoryService memory;
    try {
      memory = store.openWritable(context, scope, true);
      events.spool().drain(memory, scope, log);
    } catch (CliException e) {
      if (!event.answers()) {
        log.warn(e.getMessage() + "; the event waits in the spool");
        return;
      }
      memory = store.openReadOnly(context); // held by another process: answer from its commit
    }
    try (MemoryService open = memory) {
      Optional<ObjectNode> answer = events.answer(open, event, scope);
      if (answer.isPresent()) {
        JsonRecords.print(context.out(), answer.get());
      }
    }
  }

  /** {@code in} up to one byte past {@link #MAX_INPUT_BYTES}, which {@link AgentEvents} refuses. */
  private static byte[] readBounded(InputStream in) throws IOException {
    return in.readNBytes(MAX_INPUT_BYTES + 1);
  }
}
