package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook forget}: erases memories by id or by filter, each with every older version and,
 * for a memory consolidated from captured observations, those observations too unless told to keep
 * them; it leaves an audit record naming the actor and the reason, and prints every id removed. It
 * asks on the terminal first unless {@code --yes}, and asks whether the observations go too (with
 * their count) unless {@code --with-sources} or {@code --memory-only}; without a terminal it
 * refuses rather than guess, forgetting nothing.
 */
@Command(
    name = "forget",
    description =
        "Forget memories (with their older versions) by id or by filter, leaving an audit"
            + " record; prints every id removed. A memory made from captured observations"
            + " forgets them too with --with-sources, keeps them with --memory-only, else asks"
            + " with their count. Asks for confirmation unless --yes; without a terminal it needs"
            + " --yes and, for such a memory, one of the two. Writes: the store must not be open"
            + " in another process.")
final class ForgetCommand implements Callable<Integer> {
  /** How many memories or observations a question lists before "… and N more". */
  private static final int SHOWN = 10;

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;
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

  @Option(
      names = "--yes",
      description =
          "Do not ask for confirmation. Whether the observations a memory was made from go too is"
              + " asked still, unless --with-sources or --memory-only.")
  boolean yes;

  @Option(
      names = "--with-sources",
      description =
          "Also forget the captured observations each memory was consolidated from (in its scope),"
              + " so the same sentence is not recalled again.")
  boolean withSources;

  @Option(
      names = "--memory-only",
      description =
          "Forget the memories and their older versions only; the observations they were made"
              + " from stay.")
  boolean memoryOnly;

  @Option(
      names = "--purge-now",
      description =
          "Also rewrite now the index segments that held the forgotten memories, and wait for it:"
              + " when the command ends, no file of the store holds anything of them, not even"
              + " the words of their text in the index. Without it they are unreadable at once and"
              + " their residue is purged in the background within the store's purge delay.")
  boolean purgeNow;

  @Override
  public Integer call() {
    CliContext context = root.context();
    if (ids.isEmpty() == !filter.restricts()) {
      throw new CliException(
          ExitCode.USAGE,
          "name the memories to forget either by id or by filter (--scope, --type, --session,"
              + " --since, --until), not both and not neither");
    }
    if (withSources && memoryOnly) {
      throw new CliException(
          ExitCode.USAGE, "--with-sources and --memory-only exclude each other; pass one");
    }
    String who = actor != null ? actor : context.env().getOrDefault("USER", "memhook-cli");
    if (who.isBlank()) {
      throw new CliException(ExitCode.USAGE, "--actor must not be blank");
    }
    try (MemoryService memory = store.openForUpkeep(context)) {
      List<Memory> targets = targets(memory);
      if (targets.isEmpty()) {
        context.err().println("nothing matches: nothing forgotten");
        return print(context, List.of(), List.of(), who);
      }
      List<MemoryId> sources = sources(memory, targets);
      ForgetMode mode = mode(context, memory, targets, sources);
      Set<MemoryId> removed = new LinkedHashSet<>();
      for (Memory m : targets) {
        for (ForgetRecord r : memory.forget(m.id(), who, reason, mode)) {
          removed.add(r.id());
        }
      }
      List<MemoryId> kept = sources.stream().filter(id -> !removed.contains(id)).toList();
      if (purgeNow && !removed.isEmpty()) {
        memory.maintenance().purge();
        context.err().println("purged: no file of the store holds the forgotten memories");
      }
      return print(context, List.copyOf(removed), kept, who);
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
    memory
        .maintenance()
        .export(
            m -> {
              if (m.latest() && wanted.test(m)) {
                out.add(m);
              }
            });
    return out;
  }

  /** The observations the targets were made from that are not targets themselves, each once. */
  private static List<MemoryId> sources(MemoryService memory, List<Memory> targets) {
    Set<MemoryId> named = new HashSet<>();
    targets.forEach(m -> named.add(m.id()));
    Set<MemoryId> out = new LinkedHashSet<>();
    for (Memory m : targets) {
      for (MemoryId source : memory.maintenance().sources(m.id())) {
        if (!named.contains(source)) {
          out.add(source);
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * Confirms the forget unless {@code --yes}, and settles whether the sources go: by flag, else by
   * asking; refuses (forgetting nothing) when a question is due and there is no terminal.
   */
  private ForgetMode mode(
      CliContext context, MemoryService memory, List<Memory> targets, List<MemoryId> sources) {
    boolean askSources = !sources.isEmpty() && !withSources && !memoryOnly;
    if (askSources && !context.terminal().interactive()) {
      throw new CliException(
          ExitCode.NOT_CONFIRMED,
          "refusing to forget "
              + Sizes.count(targets.size(), "memory", "memories")
              + ": "
              + (targets.size() == 1 ? "it was" : "they were")
              + " made from "
              + Sizes.count(sources.size(), "observation", "observations")
              + ", and there is no terminal to ask whether they go too; pass --with-sources to"
              + " forget them as well or --memory-only to keep them"
              + (yes ? "" : ", and --yes")
              + "; nothing was forgotten");
    }
    if (!yes && !context.terminal().interactive()) {
      throw new CliException(
          ExitCode.NOT_CONFIRMED,
          "refusing to forget "
              + Sizes.count(targets.size(), "memory", "memories")
              + " without confirmation: there is no terminal to ask on; pass --yes; nothing was"
              + " forgotten");
    }
    if (!yes) {
      confirm(context, targets);
    }
    if (memoryOnly) {
      return ForgetMode.MEMORY_ONLY;
    }
    if (!askSources) {
      return ForgetMode.WITH_SOURCES; // --with-sources, or none to keep
    }
    List<Memory> shown = new ArrayList<>();
    for (MemoryId id : sources.subList(0, Math.min(SHOWN, sources.size()))) {
      memory.get(id).ifPresent(shown::add);
    }
    list(context, shown, sources.size());
    String made =
        targets.size() == 1
            ? targets.get(0).id() + " was made from "
            : "These " + targets.size() + " memories were made from ";
    return yes(
            context
                .terminal()
                .readLine(
                    made
                        + Sizes.count(sources.size(), "observation", "observations")
                        + (sources.size() == 1 ? "; forget it too?" : "; forget them too?")
                        + " [y/N] "))
        ? ForgetMode.WITH_SOURCES
        : ForgetMode.MEMORY_ONLY;
  }

  private static void confirm(CliContext context, List<Memory> targets) {
    list(context, targets.subList(0, Math.min(SHOWN, targets.size())), targets.size());
    String answer =
        context
            .terminal()
            .readLine(
                targets.size() == 1
                    ? "Forget this memory and its older versions? [y/N] "
                    : "Forget these "
                        + targets.size()
                        + " memories and their older versions? [y/N] ");
    if (!yes(answer)) {
      throw new CliException(ExitCode.NOT_CONFIRMED, "not confirmed: nothing was forgotten");
    }
  }

  private static void list(CliContext context, List<Memory> shown, int total) {
    for (Memory m : shown) {
      context.err().println("  " + m.id() + "  " + m.scope() + "  " + m.title());
    }
    if (shown.size() < total) {
      context.err().println("  … and " + (total - shown.size()) + " more");
    }
  }

  private static boolean yes(String answer) {
    return answer != null && answer.trim().toLowerCase(Locale.ROOT).matches("y|yes");
  }

  private int print(CliContext context, List<MemoryId> removed, List<MemoryId> kept, String who) {
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      ArrayNode list = n.putArray("forgotten");
      removed.forEach(id -> list.add(id.value()));
      ArrayNode left = n.putArray("keptSources");
      kept.forEach(id -> left.add(id.value()));
      n.put("actor", who);
      n.put("reason", reason);
      JsonRecords.print(context.out(), n);
    } else {
      removed.forEach(id -> context.out().println("forgotten " + id));
      context
          .err()
          .println(
              Sizes.count(removed.size(), "id", "ids")
                  + " forgotten by "
                  + who
                  + (kept.isEmpty()
                      ? ""
                      : "; kept "
                          + Sizes.count(kept.size(), "observation", "observations")
                          + " they were made from"));
    }
    return ExitCode.OK;
  }
}
