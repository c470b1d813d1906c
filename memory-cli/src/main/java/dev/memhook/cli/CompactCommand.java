package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryService;
import dev.memhook.lucene.IndexInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code memhook compact}: merges the index for the fastest search ({@code force-merge}). */
@Command(
    name = "compact",
    description =
        "Merge the index into one segment for the fastest search, after a large import. Needs"
            + " free disk space up to the index's size. Writes: the store must not be open in"
            + " another process.")
final class CompactCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Override
  public Integer call() {
    CliContext context = root.context();
    IndexInfo before = store.info(context);
    try (MemoryService memory = store.openForUpkeep(context)) {
      memory.maintenance().compact();
      memory.capture().flush(java.time.Duration.ofSeconds(30));
    }
    IndexInfo after = store.info(context);
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.putObject("before").put("segments", before.segments()).put("sizeBytes", before.sizeBytes());
      n.putObject("after").put("segments", after.segments()).put("sizeBytes", after.sizeBytes());
      JsonRecords.print(context.out(), n);
    } else {
      context
          .out()
          .println(
              "compacted: "
                  + Sizes.count(before.segments(), "segment", "segments")
                  + ", "
                  + Sizes.human(before.sizeBytes())
                  + " -> "
                  + Sizes.count(after.segments(), "segment", "segments")
                  + ", "
                  + Sizes.human(after.sizeBytes()));
    }
    return ExitCode.OK;
  }
}
