package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ExportedMemory;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook import}: puts an {@code export} file into a store, ids, versions and forget
 * records as they were ({@link dev.memhook.api.MemoryMaintenance#restoreExported}), with a progress
 * bar: the vectors the file carries are stored as they are where they are of the store's model and
 * dimension; other memories are embedded in batches, and standard error says why.
 *
 * <h2>Design note</h2>
 *
 * The file is read twice. The first pass parses and checks every line and stores nothing, so a
 * malformed line fails the import naming it before anything is written; the second stores the
 * memories in chunks of {@value #CHUNK}, so a large file is never held in memory at once.
 */
@Command(
    name = "import",
    description =
        "Import an export file (JSON Lines) into the store, creating it if needed: ids, versions"
            + " and forget records are kept, and the vectors the file carries are reused when the"
            + " store embeds with the same model. Every line is checked before anything is stored."
            + " Writes: the store must not be open in another process.")
final class ImportCommand implements Callable<Integer> {
  /**
   * Memories per {@link dev.memhook.api.MemoryMaintenance#restore} call: a few embedding batches
   * each.
   */
  static final int CHUNK = 2048;

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Parameters(index = "0", paramLabel = "FILE", description = "The file export wrote.")
  Path file;

  /** The space the file's header names for its vectors; set by {@link #check}. */
  private Optional<ExportFormat.Space> space = Optional.empty();

  @Override
  public Integer call() throws IOException {
    CliContext context = root.context();
    List<ForgetRecord> forgotten = new ArrayList<>();
    int memories = check(forgotten);
    int total = memories + forgotten.size();
    ProgressBar bar = ProgressBar.on(context);
    int[] counts = new int[3]; // forget records skipped, vectors reused, memories embedded
    try (MemoryService memory =
            store.openWritable(
                context,
                Scope.DEFAULT,
                true,
                space.map(s -> new EmbeddingSpace(s.model(), s.dimension())).orElse(null));
        BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      List<ExportedMemory> chunk = new ArrayList<>(CHUNK);
      int[] done = {0};
      String line;
      while ((line = in.readLine()) != null) {
        JsonNode n = JsonRecords.MAPPER.readTree(line);
        if (ExportFormat.MEMORY.equals(n.path(ExportFormat.RECORD).asText())) {
          chunk.add(
              new ExportedMemory(JsonRecords.readMemory(n), ExportFormat.readVector(n, space)));
          if (chunk.size() == CHUNK) {
            store(memory, chunk, List.of(), done, total, bar, counts);
          }
        }
      }
      store(memory, chunk, List.of(), done, total, bar, counts);
      store(memory, List.of(), forgotten, done, total, bar, counts);
    } finally {
      bar.finish();
    }
    int skipped = counts[0];
    if (store.json) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.put("memories", memories);
      n.put("forgotten", forgotten.size() - skipped);
      n.put("skippedForgotten", skipped);
      n.put("reusedVectors", counts[1]);
      n.put("embedded", counts[2]);
      JsonRecords.print(context.out(), n);
    } else {
      if (counts[2] > 0) {
        context.err().println(reembedded(counts[2]));
      }
      context
          .out()
          .println(
              "imported "
                  + Sizes.count(memories, "memory", "memories")
                  + " and "
                  + Sizes.count(forgotten.size() - skipped, "forget record", "forget records")
                  + (skipped > 0
                      ? "; "
                          + Sizes.count(skipped, "forget record", "forget records")
                          + " skipped (the store holds "
                          + (skipped == 1 ? "that memory)" : "those memories)")
                      : ""));
    }
    return ExitCode.OK;
  }

  /**
   * Why {@code embedded} memories were embedded again: the file carries no vectors, or vectors of
   * another space than the store's (or the store's redaction changed their text).
   */
  private String reembedded(int embedded) {
    String what = Sizes.count(embedded, "memory", "memories") + " embedded again: ";
    return space
        .map(
            s ->
                what
                    + "the export's vectors are of "
                    + s.model()
                    + " ("
                    + s.dimension()
                    + " dimensions) and this store embeds with another model, or redaction changed"
                    + " their text")
        .orElse(what + "the export carries no vectors");
  }

  /**
   * Restores one chunk, reporting overall progress and adding to {@code counts} what it did;
   * empties {@code chunk}.
   */
  private static void store(
      MemoryService memory,
      List<ExportedMemory> chunk,
      List<ForgetRecord> records,
      int[] done,
      int total,
      ProgressBar bar,
      int[] counts) {
    if (chunk.isEmpty() && records.isEmpty()) {
      return;
    }
    int before = done[0];
    RestoreResult result =
        memory
            .maintenance()
            .restoreExported(
                List.copyOf(chunk),
                records,
                p -> {
                  done[0] = before + p.stored();
                  bar.accept(new ImportProgress(done[0], total, p.elapsed()));
                });
    done[0] = before + chunk.size() + records.size();
    counts[0] += result.skippedForgotten();
    counts[1] += result.reusedVectors();
    counts[2] += result.embedded();
    if (!chunk.isEmpty()) {
      chunk.clear();
    }
  }

  /**
   * Parses and checks every line, keeping the forget records.
   *
   * @return the number of memories
   * @throws CliException ({@link ExitCode#BAD_INPUT}) naming the first bad line
   */
  private int check(List<ForgetRecord> forgotten) throws IOException {
    Set<MemoryId> ids = new HashSet<>();
    int memories = 0;
    int number = 0;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        number++;
        try {
          JsonNode n = JsonRecords.MAPPER.readTree(line);
          if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
          }
          String kind = n.path(ExportFormat.RECORD).asText("");
          if (number == 1) {
            space = ExportFormat.readHeader(n);
            continue;
          }
          MemoryId id;
          switch (kind) {
            case ExportFormat.MEMORY -> {
              id = JsonRecords.readMemory(n).id();
              ExportFormat.readVector(n, space);
              memories++;
            }
            case ExportFormat.FORGOTTEN -> {
              ForgetRecord r = JsonRecords.readForgotten(n);
              forgotten.add(r);
              id = r.id();
            }
            default ->
                throw new IllegalArgumentException(
                    "field 'record' must be memory or forgotten, got '" + kind + "'");
          }
          if (!ids.add(id)) {
            throw new IllegalArgumentException("id " + id + " appears twice in the file");
          }
        } catch (JsonProcessingException e) {
          throw bad(number, "not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IllegalArgumentException | NullPointerException e) {
          throw bad(number, e.getMessage());
        }
      }
    } catch (NoSuchFileException e) {
      throw new CliException(ExitCode.USAGE, "no such file: " + file);
    }
    if (number == 0) {
      throw bad(1, "the file is empty; an export starts with a header line");
    }
    return memories;
  }

  private CliException bad(int line, String message) {
    return new CliException(
        ExitCode.BAD_INPUT, file + " line " + line + ": " + message + "; nothing was imported");
  }
}
