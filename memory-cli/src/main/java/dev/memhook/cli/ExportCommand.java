package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ExportResult;
import dev.memhook.api.MemoryService;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook export}: every memory version with its vector and every forget record, as JSON
 * Lines ({@link ExportFormat}), to a file or standard output. With {@code -o}, the file appears
 * complete or not at all (written beside it, then moved).
 */
@Command(
    name = "export",
    description =
        "Write every memory (all versions) and every forget record as JSON Lines, to -o FILE or"
            + " standard output. Read-only; on a damaged store, exports what is readable.")
final class ExportCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "The file to write; standard output if omitted.")
  Path output;

  @Override
  public Integer call() throws IOException {
    CliContext context = root.context();
    long[] forgotten = {0};
    ExportResult result;
    if (output != null) {
      store.runHere(context, "-o names a file on the client's side");
    }
    try (MemoryService memory = store.openReadOnly(context)) {
      if (output == null) {
        result = write(memory, context.out(), forgotten);
        context.out().flush();
      } else {
        Path tmp = output.resolveSibling(output.getFileName() + ".partial");
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp));
            PrintStream out = new PrintStream(file, false, StandardCharsets.UTF_8)) {
          result = write(memory, out, forgotten);
          if (out.checkError()) {
            throw new IOException("writing " + tmp + " failed");
          }
        } catch (IOException | RuntimeException e) {
          Files.deleteIfExists(tmp);
          throw e;
        }
        Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    PrintStream report = output == null ? context.err() : context.out();
    if (store.json && output != null) {
      ObjectNode n = JsonRecords.MAPPER.createObjectNode();
      n.put("memories", result.exported());
      n.put("forgotten", forgotten[0]);
      n.put("unreadable", result.unreadable());
      n.put("file", output.toString());
      JsonRecords.print(report, n);
    } else {
      report.println(
          "exported "
              + Sizes.count(result.exported(), "memory", "memories")
              + " and "
              + Sizes.count(forgotten[0], "forget record", "forget records")
              + (result.unreadable() > 0
                  ? "; "
                      + Sizes.count(result.unreadable(), "unreadable record", "unreadable records")
                      + " skipped"
                  : ""));
    }
    return ExitCode.OK;
  }

  /**
   * Writes the export: the header before the first memory (which names the space of the vectors the
   * memories carry), every memory with its vector, then every forget record.
   */
  private static ExportResult write(MemoryService memory, PrintStream out, long[] forgotten) {
    // the space of the vectors, set with the header when the first memory comes
    AtomicReference<Optional<ExportFormat.Space>> space = new AtomicReference<>();
    ExportResult result =
        memory
            .maintenance()
            .exportWithVectors(
                e -> {
                  if (space.get() == null) {
                    space.set(
                        e.vector().map(v -> new ExportFormat.Space(v.modelId(), v.dimension())));
                    JsonRecords.print(out, ExportFormat.header(space.get()));
                  }
                  ObjectNode line =
                      ExportFormat.tagged(ExportFormat.MEMORY, JsonRecords.memory(e.memory()));
                  if (space.get().isPresent() && e.vector().isPresent()) {
                    line.put(ExportFormat.VECTOR, ExportFormat.encode(e.vector().get().toArray()));
                  }
                  JsonRecords.print(out, line);
                });
    if (space.get() == null) {
      JsonRecords.print(out, ExportFormat.header(Optional.empty()));
    }
    forgotten[0] =
        memory
            .maintenance()
            .exportForgotten(
                r ->
                    JsonRecords.print(
                        out,
                        ExportFormat.tagged(ExportFormat.FORGOTTEN, JsonRecords.forgotten(r))));
    if (out.checkError()) {
      throw new UncheckedIOException(new IOException("writing the export failed"));
    }
    return result;
  }
}
