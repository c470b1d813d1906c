package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** export then import is lossless; a bad line stops the import before anything is stored. */
class ExportImportTest {
  @TempDir Path source;
  @TempDir Path target;
  @TempDir Path files;

  @Test
  void exportThenImport_roundTripsEveryVersionAndForgetRecord() throws Exception {
    TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    Cli.Result out = new Cli(source).run("export", "-o", exported.toString());
    assertEquals(0, out.code(), out.err());
    assertEquals("exported 4 memories and 1 forget record", out.out().strip());

    Cli.Result in = new Cli(target).run("import", exported.toString());
    assertEquals(0, in.code(), in.err());
    assertEquals("imported 4 memories and 1 forget record", in.out().strip());

    Cli.Result again = new Cli(target).run("export");
    assertEquals(0, again.code(), again.err());
    List<String> first = Files.readAllLines(exported, StandardCharsets.UTF_8);
    assertEquals(lines(first), lines(again.out().lines().toList()));
    assertTrue(first.get(0).contains("\"record\":\"header\""));
    assertEquals(6, first.size(), "header, 4 memory versions, 1 forget record");
  }

  @Test
  void importWithoutATerminal_printsPlainProgressLines_withoutCarriageReturns() throws Exception {
    TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    assertEquals(0, new Cli(source).run("export", "-o", exported.toString()).code());

    Cli.Result in = new Cli(target).run("import", exported.toString());

    assertEquals(0, in.code(), in.err());
    assertFalse(in.err().contains("\r"), in.err());
    List<String> lines = in.err().lines().toList();
    assertFalse(lines.isEmpty(), "progress is reported");
    for (String line : lines) {
      assertTrue(line.matches("stored [1-5]/5  \\d+/s  ETA \\S+"), line);
    }
    assertTrue(lines.get(lines.size() - 1).startsWith("stored 5/5 "), in.err());
    assertTrue(lines.size() <= 10, "at most a line per tenth: " + in.err());
  }

  @Test
  void importOnATerminal_redrawsOneProgressLineInPlace() throws Exception {
    TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    assertEquals(0, new Cli(source).run("export", "-o", exported.toString()).code());

    Cli.Result in = new Cli(target).withTerminal(List.of(), "import", exported.toString());

    assertEquals(0, in.code(), in.err());
    assertTrue(in.err().startsWith("\r["), in.err());
    assertTrue(in.err().contains("\r[##############################] 5/5  "), in.err());
    assertEquals(1, in.err().chars().filter(c -> c == '\n').count(), "ended once: " + in.err());
  }

  @Test
  void theIdsAForgetRemoved_surviveExportAndImport_andAnExportWithoutThem_stillImports()
      throws Exception {
    TestStore.Seeded seeded = TestStore.seed(source);
    String v2 = seeded.timeoutV2().id().value();
    String v1 = seeded.timeoutV1().id().value();
    assertEquals(0, new Cli(source).run("forget", "--yes", v2).code());
    Path exported = files.resolve("a.jsonl");
    assertEquals(0, new Cli(source).run("export", "-o", exported.toString()).code());
    List<String> lines = Files.readAllLines(exported, StandardCharsets.UTF_8);
    String both = "\"removed\":[\"" + v2 + "\",\"" + v1 + "\"]";
    assertEquals(
        2, lines.stream().filter(l -> l.contains(both)).count(), "each record of the forget");

    // an export written before forget records listed their ids
    List<String> older =
        lines.stream().map(l -> l.replaceFirst(",\"removed\":\\[[^\\]]*\\]", "")).toList();
    assertTrue(older.stream().noneMatch(l -> l.contains("\"removed\"")), older.toString());
    Path olderFile = files.resolve("older.jsonl");
    Files.write(olderFile, older, StandardCharsets.UTF_8);
    assertEquals(0, new Cli(target).run("import", olderFile.toString()).code());
    List<String> again = new Cli(target).run("export").out().lines().toList();
    assertTrue(
        again.stream().anyMatch(l -> l.contains("\"removed\":[\"" + v1 + "\"]")),
        "a record without the list lists its own id: " + again);

    Path third = Files.createDirectory(files.resolve("third"));
    assertEquals(0, new Cli(third).run("import", exported.toString()).code());
    assertEquals(lines(lines), lines(new Cli(third).run("export").out().lines().toList()));
  }

  @Test
  void aMalformedLine_isNamed_andNothingIsStored_andWhatWasThereStays() throws Exception {
    TestStore.Seeded seeded = TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    assertEquals(0, new Cli(source).run("export", "-o", exported.toString()).code());
    List<String> lines = new ArrayList<>(Files.readAllLines(exported, StandardCharsets.UTF_8));
    lines.set(3, lines.get(3).substring(0, lines.get(3).length() / 2));
    Path broken = files.resolve("broken.jsonl");
    Files.write(broken, lines, StandardCharsets.UTF_8);

    // the target already holds the source's memories; a failed import must leave them all
    assertEquals(0, new Cli(target).run("import", exported.toString()).code());
    Set<String> before = lines(new Cli(target).run("export").out().lines().toList());
    Cli.Result r = new Cli(target).run("import", broken.toString());
    assertEquals(ExitCode.BAD_INPUT, r.code());
    assertTrue(r.err().contains("line 4: not valid JSON"), r.err());
    assertTrue(r.err().contains("nothing was imported"), r.err());
    assertEquals(before, lines(new Cli(target).run("export").out().lines().toList()));
    assertEquals(0, new Cli(target).run("show", seeded.tabs().id().value()).code());
  }

  @Test
  void aTenMegabyteMemory_orAMissingField_isRefusedNamingItsLine() throws Exception {
    TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    assertEquals(0, new Cli(source).run("export", "-o", exported.toString()).code());
    List<String> lines = new ArrayList<>(Files.readAllLines(exported, StandardCharsets.UTF_8));
    String huge = "x".repeat(10 * 1024 * 1024);
    lines.add(
        lines
            .get(1)
            .replaceFirst("\"content\":\"[^\"]*\"", "\"content\":\"" + huge + "\"")
            .replaceFirst("mem_[0-9a-z]{26}", "mem_hugehugehugehugehugehugehu"));
    Path hostile = files.resolve("hostile.jsonl");
    Files.write(hostile, lines, StandardCharsets.UTF_8);
    Cli.Result r = new Cli(target).run("import", hostile.toString());
    assertEquals(ExitCode.BAD_INPUT, r.code());
    assertTrue(r.err().contains("line " + lines.size() + ": content"), r.err());
    assertTrue(r.err().length() < 2_000, "the message does not quote the text");

    lines.remove(lines.size() - 1);
    lines.set(2, lines.get(2).replace("\"scope\":", "\"scoop\":"));
    Files.write(hostile, lines, StandardCharsets.UTF_8);
    Cli.Result missing = new Cli(target).run("import", hostile.toString());
    assertEquals(ExitCode.BAD_INPUT, missing.code());
    assertTrue(
        missing.err().contains("line 3: field 'scope' must be string, but it is missing"),
        missing.err());
    assertEquals(
        ExitCode.STORE_UNAVAILABLE, new Cli(target).run("stats").code(), "nothing was created");
  }

  /** The records of an export, without its header, as a set: exports have no set order. */
  private static Set<String> lines(List<String> lines) {
    return new TreeSet<>(lines.subList(1, lines.size()));
  }
}
