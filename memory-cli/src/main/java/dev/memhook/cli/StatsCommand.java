package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ExportResult;
import dev.memhook.api.MemoryService;
import dev.memhook.lucene.IndexInfo;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code memhook stats}: what the store holds, by scope, type and origin, and its index. */
@Command(
    name = "stats",
    description =
        "Scopes, memories by type and origin, forgotten and damaged records, index size,"
            + " segments and embedding space. Read-only.")
final class StatsCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  /** Counts of one scope; mutable while counting. */
  private static final class ScopeCounts {
    long memories;
    long olderVersions;
    long forgotten;
  }

  @Override
  public Integer call() {
    CliContext context = root.context();
    IndexInfo info = store.info(context);
    Map<String, ScopeCounts> scopes = new TreeMap<>();
    Map<String, Long> byType = new TreeMap<>();
    Map<String, Long> byOrigin = new TreeMap<>();
    ExportResult exported;
    try (MemoryService memory = store.openReadOnly(context)) {
      exported =
          memory
              .maintenance()
              .export(
                  m -> {
                    ScopeCounts c =
                        scopes.computeIfAbsent(m.scope().value(), s -> new ScopeCounts());
                    if (!m.latest()) {
                      c.olderVersions++;
                      return;
                    }
                    c.memories++;
                    byType.merge(JsonRecords.lower(m.type()), 1L, Long::sum);
                    byOrigin.merge(JsonRecords.lower(m.origin().kind()), 1L, Long::sum);
                  });
      memory
          .maintenance()
          .exportForgotten(
              r -> scopes.computeIfAbsent(r.scope().value(), s -> new ScopeCounts()).forgotten++);
    }
    long latest = scopes.values().stream().mapToLong(c -> c.memories).sum();
    long older = scopes.values().stream().mapToLong(c -> c.olderVersions).sum();
    long forgotten = scopes.values().stream().mapToLong(c -> c.forgotten).sum();
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.put("directory", store.namedDirectory(context).toString());
      n.put("writeLocked", info.writeLocked());
      n.put("format", info.format());
      if (info.space() == null) {
        n.putNull("embeddingSpace");
      } else {
        n.putObject("embeddingSpace")
            .put("modelId", info.space().modelId())
            .put("dimension", info.space().dimension());
      }
      n.put("segments", info.segments());
      n.put("sizeBytes", info.sizeBytes());
      n.put("memories", latest);
      n.put("olderVersions", older);
      n.put("forgotten", forgotten);
      n.put("unreadable", exported.unreadable());
      ObjectNode perScope = n.putObject("scopes");
      scopes.forEach(
          (scope, c) ->
              perScope
                  .putObject(scope)
                  .put("memories", c.memories)
                  .put("olderVersions", c.olderVersions)
                  .put("forgotten", c.forgotten));
      byType.forEach(n.putObject("byType")::put);
      byOrigin.forEach(n.putObject("byOrigin")::put);
      JsonRecords.print(context.out(), n);
      return ExitCode.OK;
    }
    var out = context.out();
    out.println(
        "store       "
            + store.namedDirectory(context)
            + (info.writeLocked() ? "  (open in another process: as of its last commit)" : ""));
    out.println(
        "index       format "
            + (info.format() == null ? "unrecorded" : info.format())
            + ", "
            + Sizes.count(info.segments(), "segment", "segments")
            + ", "
            + Sizes.human(info.sizeBytes()));
    out.println(
        "embedding   "
            + (info.space() == null
                ? "none recorded yet"
                : info.space().modelId() + ", " + info.space().dimension() + " dimensions"));
    out.println(
        "memories    "
            + latest
            + " latest, "
            + Sizes.count(older, "older version", "older versions")
            + ", "
            + forgotten
            + " forgotten, "
            + exported.unreadable()
            + " unreadable");
    out.println("scopes");
    scopes.forEach(
        (scope, c) ->
            out.printf(
                "  %-30s %s, %d older, %d forgotten%n",
                scope,
                Sizes.count(c.memories, "memory", "memories"),
                c.olderVersions,
                c.forgotten));
    out.println("by type     " + Sizes.counts(byType));
    out.println("by origin   " + Sizes.counts(byOrigin));
    return ExitCode.OK;
  }
}
