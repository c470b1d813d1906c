package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code memhook list}: the memories a filter matches, newest first. */
@Command(
    name = "list",
    description =
        "List memories, newest first, filtered by scope, type, session and time. Read-only.")
final class ListCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;
  @Mixin MemoryFilter filter;

  @Option(
      names = "--all-versions",
      description = "Older versions too, not only the latest of each memory.")
  boolean allVersions;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "At most N memories; 0 for all. Default: ${DEFAULT-VALUE}.")
  int limit = 50;

  @Override
  public Integer call() {
    CliContext context = root.context();
    if (limit < 0) {
      throw new CliException(ExitCode.USAGE, "--limit must be 0 or more, got " + limit);
    }
    List<Memory> matched = matching(store, filter, allVersions, context);
    List<Memory> shown = limit == 0 ? matched : matched.subList(0, Math.min(limit, matched.size()));
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.put("matched", matched.size());
      ArrayNode list = n.putArray("memories");
      for (Memory m : shown) {
        list.addObject()
            .put("id", m.id().value())
            .put("type", JsonRecords.lower(m.type()))
            .put("scope", m.scope().value())
            .put("title", m.title())
            .put("summary", m.summary())
            .put("sourceSession", m.sourceSession())
            .put("version", m.version())
            .put("latest", m.latest())
            .put("createdAt", m.createdAt().toString());
      }
      JsonRecords.print(context.out(), n);
      return ExitCode.OK;
    }
    for (Memory m : shown) {
      context
          .out()
          .printf(
              "%s  %s  %-12s %-20s %s%s%n",
              m.id(),
              m.createdAt(),
              JsonRecords.lower(m.type()),
              m.scope(),
              m.title(),
              m.latest() ? "" : "  (v" + m.version() + ", superseded)");
    }
    context
        .err()
        .println(
            shown.size()
                + " of "
                + Sizes.count(matched.size(), "matching memory", "matching memories"));
    return ExitCode.OK;
  }

  /** The memories of the store {@code filter} matches, newest first (ties by id). */
  static List<Memory> matching(
      StoreArguments store, MemoryFilter filter, boolean allVersions, CliContext context) {
    Predicate<Memory> wanted = filter.predicate(Instant.now());
    List<Memory> matched = new ArrayList<>();
    try (MemoryService memory = store.openReadOnly(context)) {
      memory
          .maintenance()
          .export(
              m -> {
                if ((allVersions || m.latest()) && wanted.test(m)) {
                  matched.add(m);
                }
              });
    }
    matched.sort(
        Comparator.comparing(Memory::createdAt).reversed().thenComparing(m -> m.id().value()));
    return matched;
  }
}
