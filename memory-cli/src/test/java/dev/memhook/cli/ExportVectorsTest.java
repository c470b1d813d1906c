package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.testkit.Seeds;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export carries each memory's vector (float16, base64) and an import into a store of the same
 * model stores it as it is; an older export, an export of another model and a hostile vector are
 * each handled as the format says.
 */
class ExportVectorsTest {
  @TempDir Path source;
  @TempDir Path target;
  @TempDir Path files;

  private Path export() throws Exception {
    TestStore.seed(source);
    Path exported = files.resolve("a.jsonl");
    Cli.Result out = new Cli(source).run("export", "-o", exported.toString());
    assertEquals(0, out.code(), out.err());
    return exported;
  }

  private static JsonNode json(String line) throws Exception {
    return JsonRecords.MAPPER.readTree(line);
  }

  /** The file with {@code edit} applied to line {@code index} (0 is the header). */
  private Path edited(Path exported, int index, UnaryOperator<ObjectNode> edit) throws Exception {
    List<String> lines = new ArrayList<>(Files.readAllLines(exported, StandardCharsets.UTF_8));
    ObjectNode n = (ObjectNode) json(lines.get(index));
    lines.set(index, JsonRecords.MAPPER.writeValueAsString(edit.apply(n)));
    Path out = files.resolve("edited-" + index + ".jsonl");
    Files.write(out, lines, StandardCharsets.UTF_8);
    return out;
  }

  private static Map<String, float[]> vectors(List<String> lines) throws Exception {
    Map<String, float[]> out = new HashMap<>();
    for (String line : lines) {
      JsonNode n = json(line);
      if ("memory".equals(n.path("record").asText())) {
        byte[] bytes = Base64.getDecoder().decode(n.path("vector").asText());
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] v = new float[bytes.length / 2];
        for (int i = 0; i < v.length; i++) {
          v[i] = ExportFormat.Half.toFloat(in.getShort());
        }
        out.put(n.path("id").asText(), v);
      }
    }
    return out;
  }

  @Test
  void anExportCarriesEveryVector_andAnImportIntoANewStoreReusesThem() throws Exception {
    Path exported = export();
    List<String> lines = Files.readAllLines(exported, StandardCharsets.UTF_8);
    JsonNode header = json(lines.get(0));
    assertEquals(2, header.path("version").asInt());
    JsonNode space = header.path("vectors");
    assertTrue(space.path("model").asText().startsWith("memhook-hashing-v1-d"), header.toString());
    assertEquals("float16-le-base64", space.path("encoding").asText());
    int dimension = space.path("dimension").asInt();
    Map<String, float[]> before = vectors(lines);
    assertEquals(4, before.size());
    for (String line : lines.subList(1, 5)) {
      assertEquals((dimension * 2 + 2) / 3 * 4, json(line).path("vector").asText().length());
    }

    Cli.Result in = new Cli(target).run("import", "--json", exported.toString());
    assertEquals(0, in.code(), in.err());
    JsonNode report = json(in.out().strip());
    assertEquals(4, report.path("reusedVectors").asInt(), in.out());
    assertEquals(0, report.path("embedded").asInt(), in.out());
    assertFalse(in.err().contains("embedded again"), in.err());

    Map<String, float[]> after = vectors(new Cli(target).run("export").out().lines().toList());
    assertEquals(before.keySet(), after.keySet());
    before.forEach(
        (id, v) -> {
          float[] w = after.get(id);
          for (int i = 0; i < v.length; i++) {
            assertEquals(v[i], w[i], 1e-3, id + "[" + i + "]");
          }
        });
  }

  @Test
  void anExportWithoutVectors_stillImports_embeddedAgain() throws Exception {
    Path exported = export();
    List<String> lines = new ArrayList<>(Files.readAllLines(exported, StandardCharsets.UTF_8));
    lines.set(0, "{\"record\":\"header\",\"format\":\"memhook-export\",\"version\":1}");
    for (int i = 1; i < lines.size(); i++) {
      lines.set(i, lines.get(i).replaceFirst(",\"vector\":\"[^\"]*\"", ""));
    }
    Path old = files.resolve("v1.jsonl");
    Files.write(old, lines, StandardCharsets.UTF_8);

    Cli.Result in = new Cli(target).run("import", "--embedder", "hashing", old.toString());
    assertEquals(0, in.code(), in.err());
    assertEquals("imported 4 memories and 1 forget record", in.out().strip());
    assertTrue(
        in.err().contains("4 memories embedded again: the export carries no vectors"), in.err());
  }

  @Test
  void anExportOfAnotherModel_isEmbeddedAgain_andTheImportSaysSo() throws Exception {
    Path other =
        edited(
            export(), 0, n -> n.set("vectors", ((ObjectNode) n.get("vectors")).put("model", "x")));
    Cli.Result in = new Cli(target).run("import", "--embedder", "hashing", other.toString());
    assertEquals(0, in.code(), in.err());
    assertTrue(
        in.err().contains("4 memories embedded again: the export's vectors are of x ("), in.err());
  }

  @Test
  void aHostileVector_isRefusedNamingItsLine_andWhatWasStoredStays() throws Exception {
    Path exported = export();
    assertEquals(0, new Cli(target).run("import", exported.toString()).code());
    String before = new Cli(target).run("export").out();
    String good = json(Files.readAllLines(exported).get(2)).path("vector").asText();
    Map<String, String> hostile = new HashMap<>();
    hostile.put(good.substring(4), "must be " + good.length() + " characters of base64");
    hostile.put("!" + good.substring(1), "is not valid base64");
    hostile.put("x".repeat(10 * 1024 * 1024), "must be " + good.length() + " characters");
    for (Map.Entry<String, String> h : hostile.entrySet()) {
      Path bad = edited(exported, 2, n -> n.put("vector", h.getKey()));
      Cli.Result r = new Cli(target).run("import", bad.toString());
      assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
      assertTrue(r.err().contains("line 3: field 'vector' " + h.getValue()), r.err());
      assertTrue(r.err().contains("nothing was imported"), r.err());
      assertTrue(r.err().length() < 2_000, "the message does not quote the field");
    }
    // a NaN at index 1: the first four characters (three bytes) keep the first value
    byte[] bytes = Base64.getDecoder().decode(good);
    bytes[2] = 0;
    bytes[3] = 0x7e;
    Path withNan =
        edited(exported, 2, n -> n.put("vector", Base64.getEncoder().encodeToString(bytes)));
    Cli.Result r = new Cli(target).run("import", withNan.toString());
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(
        r.err().contains("line 3: field 'vector' holds a value that is not finite at index 1"),
        r.err());
    Path noSpace = edited(exported, 0, n -> n.putNull("vectors"));
    Cli.Result unnamed = new Cli(target).run("import", noSpace.toString());
    assertEquals(ExitCode.BAD_INPUT, unnamed.code(), unnamed.err());
    assertTrue(
        unnamed.err().contains("line 2: field 'vector' is given, but the header names no vectors"),
        unnamed.err());
    Path huge = edited(exported, 0, n -> n.set("vectors", vectorsOf(n, 1 << 30)));
    Cli.Result tooLarge = new Cli(target).run("import", huge.toString());
    assertEquals(ExitCode.BAD_INPUT, tooLarge.code(), tooLarge.err());
    assertTrue(tooLarge.err().contains("line 1: the header's vector dimension"), tooLarge.err());

    assertEquals(before, new Cli(target).run("export").out(), "nothing stored was lost");
  }

  private static ObjectNode vectorsOf(ObjectNode header, int dimension) {
    return ((ObjectNode) header.get("vectors")).put("dimension", dimension);
  }

  @Test
  void half_roundTripsEveryFiniteValue_andRoundsFloatsToTheNearest() {
    for (int h = 0; h <= 0xffff; h++) {
      short half = (short) h;
      if (ExportFormat.Half.isFinite(half)) {
        float f = ExportFormat.Half.toFloat(half);
        short back = ExportFormat.Half.of(f);
        assertEquals(half, back, "half " + Integer.toHexString(h));
      }
    }
    long seed = Seeds.seed();
    Random random = new Random(seed);
    for (int i = 0; i < 100_000; i++) {
      float f = (float) (random.nextGaussian() * Math.pow(2, random.nextInt(30) - 20));
      float g = ExportFormat.Half.toFloat(ExportFormat.Half.of(f));
      assertTrue(
          Math.abs(f - g) <= Math.max(Math.abs(f) * 0x1p-11f, 0x1p-25f),
          f + " became " + g + "; " + Seeds.replay(seed));
    }
    assertEquals((short) 0x3c00, ExportFormat.Half.of(1f));
    assertEquals((short) 0x3c00, ExportFormat.Half.of(1f + 0x1p-11f), "a tie rounds to even");
    assertEquals((short) 0x3c01, ExportFormat.Half.of(1f + 0x1p-11f + 0x1p-20f));
  }
}
