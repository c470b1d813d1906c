package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook forget}: erases memories by id or by filter, each with every older version, and
 * leaves an audit record naming the actor and the reason. It asks on the terminal first unless
 * {@code --yes}; without a terminal it refuses rather than guess.
 */
@Command(
    name = "forget",
    description =
        "Forget memories (with their older versions) by id or by filter, leaving an audit"
            + " record. Asks for confirmation unless --yes; without a terminal it needs --yes."
            + " Writes: the store must not be open in another process.")
final class ForgetCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreOptions store;
  @Mixin MemoryFilter filter;

  @Parameters(arity = "0..*", paramLabel = "ID", description = "Memory ids to forget.")
  List<MemoryId> ids = new ArrayList<>();

  @Option(
      names = "--actor",
      paramLabel = "WHO",
      description = "Who asks, for the audit record. Default: $USER, else memhook-cli.")
  String actor;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "Why, for the audit record. Default: ${DEFAULT-VALUE}.")
  String reason = "forgotten with memhook forget";

  @Option(names = "--yes", description = "Do not ask for confirmation.")
  boolean yes;

  @Override
  public Integer call() {
    CliContext context = root.context();
    if (ids.isEmpty() == !filter.restricts()) {
      throw new CliException(
          ExitCode.USAGE,
          "name the memories to forget either by id or by filter (--scope, --type, --session,"
              + " --since, --until), not both and not neither");
    }
    String who = actor != null ? actor : context.env().getOrDefault("USER", "memhook-cli");
    if (who.isBlank()) {
      throw new CliException(ExitCode.USAGE, "--actor must not be blank");
    }
    try (MemoryService memory = store.openWritable(context, Scope.DEFAULT, false)) {
      List<Memory> targets = targets(memory);
      if (targets.isEmpty()) {
        context.err().println("nothing matches: nothing forgotten");
        return print(context, List.of(), who);
      }
      if (!yes) {
        confirm(context, targets);
      }
      List<MemoryId> forgotten = new ArrayList<>();
      for (Memory m : targets) {
        if (memory.forget(m.id(), who, reason)) {
          forgotten.add(m.id());
        }
      }
      return print(context, forgotten, who);
    }
  }

  private List<Memory> targets(MemoryService memory) {
    List<Memory> out = new ArrayList<>();
    if (!ids.isEmpty()) {
      List<MemoryId> missing = new ArrayList<>();
      for (MemoryId id : ids) {
        Optional<Memory> m = memory.get(id);
        m.ifPresentOrElse(out::add, () -> missing.add(id));
      }
      if (!missing.isEmpty()) {
        throw new CliException(
            ExitCode.NOT_FOUND, "no memory with id " + missing + "; nothing was forgotten");
      }
      return out;
    }
    Predicate<Memory> wanted = filter.predicate(Instant.now());
    memory.export(
        m -> {
          if (m.latest() && wanted.test(m)) {
            out.add(m);
          }
        });
    return out;
  }

  private static void confirm(CliContext context, List<Memory> targets) {
    if (!context.terminal().interactive()) {
      throw new CliException(
          ExitCode.NOT_CONFIRMED,
          "refusing to forget "
              + targets.size()
              + " memories without confirmation: there is no terminal to ask on; pass --yes");
    }
    int shown = Math.min(10, targets.size());
    for (Memory m : targets.subList(0, shown)) {
      context.err().println("  " + m.id() + "  " + m.scope() + "  " + m.title());
    }
    if (shown < targets.size()) {
      context.err().println("  … and " + (targets.size() - shown) + " more");
    }
    String answer =
        context
            .terminal()
            .readLine(
                "Forget these " + targets.size() + " memories and their older versions? [y/N] ");
    if (answer == null || !answer.trim().toLowerCase(Locale.ROOT).matches("y|yes")) {
      throw new CliException(ExitCode.NOT_CONFIRMED, "not confirmed: nothing was forgotten");
    }
  }

  private int print(CliContext context, List<MemoryId> forgotten, String who) {
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      ArrayNode list = n.putArray("forgotten");
      forgotten.forEach(id -> list.add(id.value()));
      n.put("actor", who);
      n.put("reason", reason);
      JsonRecords.print(context.out(), n);
    } else {
      forgotten.forEach(id -> context.out().println("forgotten " + id));
      context.err().println(forgotten.size() + " memories forgotten by " + who);
    }
    return ExitCode.OK;
  }
}
