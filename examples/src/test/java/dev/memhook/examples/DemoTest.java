package dev.memhook.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.Memhook;
import dev.memhook.djl.DjlEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's story, checked fact by fact, on the demo's own configuration (the bundled int8 model,
 * loaded from its Maven jar, offline): one run of both lifetimes, each in a JVM of its own, shared
 * by the tests. Not the hashing embedder: without a model's vectors, whether the decision clears
 * the relevance gate rests on its text share alone. The question is worded so that both routes
 * clear the evidence floors with a margin; a question whose words the memories mostly lack is the
 * gate's to refuse. What the lifetimes left is read back from the directory afterwards, by a
 * service that leaves the sessions as it finds them.
 */
class DemoTest {

  /** The attribute a consolidated memory names its session in. */
  private static final String CONSOLIDATED_FROM = "memhook.consolidatedFrom";

  @TempDir static Path directory;

  private static Demo.Story story;
  private static String output;

  /** Every memory in the directory after the demo, by id. */
  private static Map<MemoryId, Memory> stored;

  /** Every session in the directory after the demo. */
  private static List<Session> sessions;

  @BeforeAll
  static void runTheDemo() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, UTF_8)) {
      story = Demo.run(directory, DemoModel.scripted(), out);
    }
    output = bytes.toString(UTF_8);
    stored = new HashMap<>();
    try (MemoryService memory =
        Memhook.builder()
            .directory(directory)
            .embedder(DjlEmbedder.bundledMiniLm())
            .capture(CaptureOptions.builder().keepSessionsOpenOnClose().build())
            .build()) {
      memory.maintenance().export(m -> stored.put(m.id(), m));
      sessions = memory.capture().sessions();
    }
  }

  @Test
  void firstLifetime_remembersNothingByHand_everyMemoryIsCapturedOrConsolidated() {
    List<Memory> captured = captured();
    assertTrue(
        captured.stream().anyMatch(m -> m.type() == MemoryType.OBSERVATION), "no observations");
    assertTrue(
        captured.stream().anyMatch(m -> m.type() != MemoryType.OBSERVATION),
        "nothing consolidated when the first lifetime closed");
    for (Memory m : captured) {
      assertTrue(
          m.type() == MemoryType.OBSERVATION || m.attributes().containsKey(CONSOLIDATED_FROM),
          "written by hand, not by capture or consolidation: " + m);
    }
  }

  @Test
  void eachLifetimesConversation_isEndedWhenItsServiceCloses() {
    assertEquals(2, sessions.size(), sessions.toString());
    for (Session s : sessions) {
      assertEquals(SessionStatus.CLOSED, s.status(), s.toString());
    }
    assertTrue(output.contains(": CLOSED (ended when lifetime 1 closed)"), output);
  }

  @Test
  void secondConversation_injectsAMemoryAboutCents() {
    assertTrue(
        captured().stream()
            .anyMatch(m -> story.injectedIds().contains(m.id()) && m.content().contains("cents")),
        "no injected memory mentions cents; injected: " + story.injectedIds());
  }

  @Test
  void secondConversation_modelFetchesTheCentsMemoryInFull_andAnswersWithIt() {
    Memory fetched = capturedMemory(story);
    assertTrue(story.injectedIds().contains(fetched.id()), "fetched a memory not injected");
    assertTrue(fetched.content().contains("cents"), fetched.content());
    assertTrue(
        story.fetchResult().contains("\"content\":\"" + fetched.content() + "\""),
        "the fetch did not return the full content: " + story.fetchResult());
    assertEquals(ScriptedModel.ANSWER_PREFIX + "\"" + fetched.content() + "\"", story.answer());
  }

  @Test
  void output_showsInjectionThenFetchThenAnswer_inOrder() {
    int injected = output.indexOf("tool_call   SYNTHETIC get_memory {ids=");
    int fetch = output.indexOf("tool_call   MODEL     get_memory {id=" + story.fetchedId());
    int answer = output.indexOf("assistant   MODEL     " + ScriptedModel.ANSWER_PREFIX);
    assertTrue(injected >= 0 && injected < fetch && fetch < answer, output);
  }

  /** The memories the first lifetime left, as the directory holds them now. */
  private static List<Memory> captured() {
    return story.captured().stream()
        .map(
            id -> {
              Memory m = stored.get(id);
              if (m == null) {
                throw new AssertionError("the first lifetime's memory " + id + " is gone");
              }
              return m;
            })
        .toList();
  }

  private static Memory capturedMemory(Demo.Story story) {
    return captured().stream()
        .filter(m -> m.id().equals(story.fetchedId()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("fetched an unknown memory " + story.fetchedId()));
  }
}
