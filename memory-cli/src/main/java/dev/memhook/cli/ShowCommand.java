package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code memhook show}: memories in full, by id. */
@Command(
    name = "show",
    description =
        "Show memories in full by id (any version). Read-only. Exits 3 if one is not found.")
final class ShowCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Parameters(arity = "1..*", paramLabel = "ID", description = "Memory ids.")
  List<MemoryId> ids;

  @Override
  public Integer call() {
    CliContext context = root.context();
    List<Memory> found = new ArrayList<>();
    List<MemoryId> missing = new ArrayList<>();
    try (MemoryService memory = store.openReadOnly(context)) {
      for (MemoryId id : ids) {
        Optional<Memory> m = memory.get(id);
        if (m.isPresent()) {
          found.add(m.get());
        } else {
          missing.add(id);
        }
      }
    }
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      ArrayNode list = n.putArray("memories");
      found.forEach(m -> list.add(JsonRecords.memory(m)));
      ArrayNode notFound = n.putArray("notFound");
      missing.forEach(id -> notFound.add(id.value()));
      JsonRecords.print(context.out(), n);
    } else {
      found.forEach(m -> print(context.out(), m));
    }
    if (!missing.isEmpty()) {
      context.err().println("memhook: no memory with id " + missing);
      return ExitCode.NOT_FOUND;
    }
    return ExitCode.OK;
  }

  private static void print(PrintStream out, Memory m) {
    out.println("id          " + m.id());
    out.println(
        "version     "
            + m.version()
            + (m.latest() ? " (latest)" : " (superseded)")
            + (m.supersedes() == null ? "" : ", supersedes " + m.supersedes()));
    out.println("type        " + JsonRecords.lower(m.type()));
    out.println("scope       " + m.scope());
    out.println("origin      " + m.origin());
    out.println("session     " + (m.sourceSession() == null ? "-" : m.sourceSession()));
    out.println("occurred    " + m.occurredAt());
    out.println("created     " + m.createdAt());
    out.println("importance  " + m.importance());
    out.println("concepts    " + String.join(", ", m.concepts()));
    out.println("files       " + String.join(", ", m.files()));
    if (!m.attributes().isEmpty()) {
      out.println("attributes  " + m.attributes());
    }
    out.println("title       " + m.title());
    out.println("summary     " + m.summary());
    out.println("content");
    out.println(m.content().indent(2).stripTrailing());
    out.println();
  }
}
