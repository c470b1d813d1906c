package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link HttpServerChoice} on a few requests so it cannot rot: both servers answer every
 * request with a 200 and {@code {}} (the harness fails otherwise) and each prints its row.
 */
class HttpServerChoiceSmokeTest {

  @Test
  void bothServersAnswerEveryRequest_andEachPrintsItsRow() throws Exception {
    PrintStream previous = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      HttpServerChoice.main(new String[] {"20", "1"});
    } finally {
      System.setOut(previous);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, count(printed, "jdk.httpserver"), printed);
    assertEquals(1, count(printed, "jetty 12 core"), printed);
  }

  private static long count(String text, String part) {
    return text.lines().filter(l -> l.contains(part) && l.contains("p99")).count();
  }
}
