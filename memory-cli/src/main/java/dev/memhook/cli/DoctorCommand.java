package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallQuery;
import dev.memhook.lucene.IndexInfo;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook doctor}: checks a store without changing it (read-only, no lock) and says, for
 * each problem, what to do. Exits {@link ExitCode#PROBLEMS_FOUND} if it found one.
 */
@Command(
    name = "doctor",
    description =
        "Check the store read-only: index format, lock, file checksums, embedding space against"
            + " --embedder, damaged records and a sample recall; say what to do about each"
            + " problem. Exits 4 if it found one.")
final class DoctorCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  /** One check's outcome; {@code remedy} is empty when there is nothing to do. */
  record Finding(String check, Status status, String detail, String remedy) {}

  /** How a check came out. */
  enum Status {
    OK,
    INFO,
    PROBLEM
  }

  @Override
  public Integer call() {
    CliContext context = root.context();
    Path dir = store.directory(context);
    List<Finding> findings = new ArrayList<>();
    check(context, dir, findings);
    boolean healthy = findings.stream().noneMatch(f -> f.status() == Status.PROBLEM);
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.put("directory", dir.toString());
      n.put("healthy", healthy);
      ArrayNode checks = n.putArray("checks");
      for (Finding f : findings) {
        checks
            .addObject()
            .put("check", f.check())
            .put("status", JsonRecords.lower(f.status()))
            .put("detail", f.detail())
            .put("remedy", f.remedy());
      }
      JsonRecords.print(context.out(), n);
    } else {
      for (Finding f : findings) {
        context.out().printf("%-8s %-16s %s%n", f.status(), f.check(), f.detail());
        if (!f.remedy().isEmpty()) {
          context.out().println("         what to do: " + f.remedy());
        }
      }
      context.out().println(healthy ? "healthy" : "problems found");
    }
    return healthy ? ExitCode.OK : ExitCode.PROBLEMS_FOUND;
  }

  private void check(CliContext context, Path dir, List<Finding> findings) {
    IndexInfo info;
    try {
      info = IndexInfo.read(dir);
    } catch (MemoryStoreException e) {
      findings.add(
          new Finding(
              "store",
              Status.PROBLEM,
              e.getMessage(),
              "point --dir (or $MEMHOOK_DIR) at the directory the application stores into"));
      return;
    }
    findings.add(
        info.formatSupported()
            ? new Finding(
                "index format",
                Status.OK,
                info.format() == null ? "unrecorded (an early index)" : info.format(),
                "")
            : new Finding(
                "index format",
                Status.PROBLEM,
                info.format() + ", but this memhook reads " + LuceneMemoryStore.INDEX_FORMAT,
                "use the memhook that wrote it to export the store, then import it with this one"));
    findings.add(
        info.writeLocked()
            ? new Finding(
                "lock",
                Status.INFO,
                "held: another process has the store open for writing",
                "read-only commands work now and show its writes as of its last commit; forget,"
                    + " import and compact need that process closed")
            : new Finding("lock", Status.OK, "free", ""));
    List<String> damaged;
    try {
      damaged = IndexInfo.damagedSegments(dir);
    } catch (MemoryStoreException e) {
      findings.add(new Finding("checksums", Status.PROBLEM, e.getMessage(), restoreBackup()));
      return;
    }
    if (damaged.isEmpty()) {
      findings.add(
          new Finding(
              "checksums",
              Status.OK,
              Sizes.count(info.segments(), "segment", "segments")
                  + ", "
                  + Sizes.human(info.sizeBytes()),
              ""));
    } else {
      for (String d : damaged) {
        findings.add(new Finding("checksums", Status.PROBLEM, d, rescue(dir)));
      }
    }
    try (MemoryService memory = store.openReadOnly(context)) {
      boolean withoutModel = store.readsWithoutModel(info);
      findings.add(
          new Finding(
              "embedding",
              withoutModel ? Status.INFO : Status.OK,
              info.space() == null
                  ? "no vectors yet"
                  : info.space().modelId() + ", " + info.space().dimension() + " dimensions",
              withoutModel ? UnbundledModel.explain(info.space()) : ""));
      sample(memory, dir, findings, withoutModel);
    } catch (CliException e) {
      boolean space = e.getCause() instanceof dev.memhook.api.IncompatibleStoreException;
      findings.add(
          new Finding(
              space ? "embedding" : "open",
              Status.PROBLEM,
              e.getMessage(),
              space
                  ? "run with --embedder auto (the store's own model) or the model the store"
                      + " was built with"
                  : rescue(dir)));
    }
  }

  private static void sample(
      MemoryService memory, Path dir, List<Finding> findings, boolean withoutModel) {
    List<Memory> latest = new ArrayList<>();
    ExportResult exported =
        memory
            .maintenance()
            .export(
                m -> {
                  if (m.latest()) {
                    latest.add(m);
                  }
                });
    findings.add(
        exported.unreadable() == 0
            ? new Finding("records", Status.OK, exported.exported() + " readable", "")
            : new Finding(
                "records",
                Status.PROBLEM,
                Sizes.count(exported.unreadable(), "unreadable record", "unreadable records")
                    + ", "
                    + exported.exported()
                    + " readable",
                rescue(dir)));
    if (latest.isEmpty()) {
      findings.add(new Finding("sample recall", Status.INFO, "no memory to recall", ""));
      return;
    }
    if (withoutModel) {
      findings.add(
          new Finding("sample recall", Status.INFO, "skipped: it needs the store's model", ""));
      return;
    }
    Memory probe =
        latest.stream()
            .max(Comparator.comparing(Memory::createdAt).thenComparing(m -> m.id().value()))
            .orElseThrow();
    RecallQuery query = new RecallQuery(probe.scope(), probe.title(), RecallQuery.MAX_LIMIT);
    boolean found = memory.recall(query).ids().contains(probe.id());
    findings.add(
        found
            ? new Finding(
                "sample recall", Status.OK, "found " + probe.id() + " by its own title", "")
            : new Finding(
                "sample recall",
                Status.PROBLEM,
                "a recall of " + probe.id() + "'s own title in " + probe.scope() + " missed it",
                "run memhook search --explain --scope "
                    + probe.scope()
                    + " with that title to see which gate dropped it"));
  }

  private static String rescue(Path dir) {
    return "export what is readable (memhook export --dir "
        + dir
        + " -o rescue.jsonl), import it into a new directory (memhook import --dir NEW"
        + " rescue.jsonl), and use that one";
  }

  private static String restoreBackup() {
    return "the commit itself is damaged: restore the directory from a backup or import an"
        + " earlier export into a new directory";
  }
}
