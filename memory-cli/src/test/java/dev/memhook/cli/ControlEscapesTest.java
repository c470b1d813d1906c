package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Nothing a memory holds can drive the terminal that {@code memhook} prints it to. */
class ControlEscapesTest {

  private static final String HOSTILE =
      "title \u001b]0;PWNED\u0007 then \u001b]52;c;cHduZWQ=\u0007 and \u001b[2J\u001b[31mred"
          + "\u001b[0m, a C1 CSI \u009b31m, DEL \u007f, a bell \u0007, a CR \r over";

  @Test
  void everyControlCharacter_isWrittenAsAVisibleEscape_andTextStaysAsItWas() {
    String printed = print(HOSTILE + "\n\ttab é Ā \u00a0 日本 🚀", StandardCharsets.UTF_8, false);
    assertFalse(printed.chars().anyMatch(c -> c == 0x1b || c == 0x07 || c == 0x7f), printed);
    assertFalse(printed.chars().anyMatch(c -> c >= 0x80 && c <= 0x9f), printed);
    assertFalse(printed.contains("\r"), printed);
    assertTrue(printed.startsWith("title \\u001b]0;PWNED\\u0007 then \\u001b]52;"), printed);
    assertTrue(printed.contains("a C1 CSI \\u009b31m, DEL \\u007f"), printed);
    assertTrue(printed.endsWith("over\n\ttab é Ā \u00a0 日本 🚀"), printed);
  }

  @Test
  void stderr_keepsTheCarriageReturnOfItsProgressLine() {
    assertEquals(
        "\r[##  ] 2/4 \\u001b[K", print("\r[##  ] 2/4 \u001b[K", StandardCharsets.UTF_8, true));
  }

  @Test
  void anIso8859Stream_escapesItsOneByteC1Controls() {
    assertEquals(
        "x\\u009by é", print("x\u009by é", StandardCharsets.ISO_8859_1, false), "one byte each");
  }

  @Test
  void aUtf8SequenceSplitAcrossWrites_isReadWhole() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = ControlEscapes.around(printStream(bytes, StandardCharsets.UTF_8), false);
    byte[] csi = "\u009b".getBytes(StandardCharsets.UTF_8);
    byte[] nbsp = "\u00a0".getBytes(StandardCharsets.UTF_8);
    out.write(csi, 0, 1);
    out.write(csi, 1, 1);
    out.write(nbsp, 0, 1);
    out.write(nbsp, 1, 1);
    out.flush();
    assertEquals("\\u009b\u00a0", bytes.toString(StandardCharsets.UTF_8));
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void anyText_comesOutWithoutAControlCharacter_andOtherwiseUnchanged(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int round = 0; round < 20; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(60); i > 0; i--) {
        text.appendCodePoint(
            random.nextInt(4) == 0 ? random.nextInt(0xa0) : 0x20 + random.nextInt(0x3000));
      }
      String printed = print(text.toString(), StandardCharsets.UTF_8, false);
      String context = "seed " + seed + ", text " + text.codePoints().boxed().toList();
      assertFalse(
          printed
              .codePoints()
              .anyMatch(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)),
          context);
      StringBuilder expected = new StringBuilder();
      text.codePoints()
          .forEach(
              c -> {
                if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)) {
                  expected.append(String.format("\\u%04x", c));
                } else {
                  expected.appendCodePoint(c);
                }
              });
      assertEquals(expected.toString(), printed, context);
    }
  }

  @Test
  void memhookShowAndList_printAHostileMemoryWithoutItsEscapes(@TempDir Path dir) {
    Memory m;
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).noCapture().build()) {
      m =
          memory.remember(
              MemoryDraft.builder(Scope.DEFAULT, "output " + HOSTILE).title(HOSTILE).build());
    }
    for (String[] args :
        new String[][] {{"show", m.id().value()}, {"list"}, {"search", "--no-gate", "PWNED"}}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      CliContext context =
          CliContext.escaping(
              java.io.InputStream.nullInputStream(),
              printStream(out, StandardCharsets.UTF_8),
              printStream(err, StandardCharsets.UTF_8),
              Map.of(StoreArguments.DIR_VARIABLE, dir.toString()),
              Terminal.NONE);
      int code = MemhookCli.run(args, context);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, String.join(" ", args) + ": " + printed + err);
      assertTrue(printed.contains("PWNED"), String.join(" ", args) + ": " + printed);
      assertFalse(printed.contains("\u001b"), String.join(" ", args) + ": " + printed);
      assertFalse(printed.contains("\u009b"), String.join(" ", args) + ": " + printed);
    }
  }

  @Test
  void aFailingStreamUnderneath_isAnErrorOfTheEscapingOne() {
    PrintStream failing =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    failing.close(); // a PrintStream records a failed write, as it does a write after close
    PrintStream out = ControlEscapes.around(failing, false);
    out.println("a line");
    assertTrue(out.checkError(), "a broken pipe or a full disk under it is seen");
  }

  @Test
  void memhookExport_toAStandardOutputThatFails_failsAndSaysSo(@TempDir Path dir) {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).noCapture().build()) {
      memory.remember(MemoryDraft.builder(Scope.DEFAULT, "we use tabs").build());
    }
    PrintStream full =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    full.close();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliContext context =
        CliContext.escaping(
            java.io.InputStream.nullInputStream(),
            full,
            printStream(err, StandardCharsets.UTF_8),
            Map.of(StoreArguments.DIR_VARIABLE, dir.toString()),
            Terminal.NONE);
    int code = MemhookCli.run(new String[] {"export"}, context);
    String said = err.toString(StandardCharsets.UTF_8);
    assertEquals(ExitCode.FAILED, code, said);
    assertTrue(said.contains("writing the export failed"), said);
  }

  private static String print(String text, Charset charset, boolean keepCarriageReturn) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = ControlEscapes.around(printStream(bytes, charset), keepCarriageReturn);
    out.print(text);
    out.flush();
    return bytes.toString(charset);
  }

  private static PrintStream printStream(ByteArrayOutputStream bytes, Charset charset) {
    return new PrintStream(bytes, true, charset);
  }
}
