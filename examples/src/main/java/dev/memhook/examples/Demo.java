package dev.memhook.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Session;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo: memory that writes itself in one conversation and comes back in the next.
 *
 * <p>A scripted model ({@link ScriptedModel}) plays two conversations, each in its own lifetime of
 * a memory service on the embedded default (Lucene on disk, the local embedding model) over the
 * same directory, and each lifetime in a JVM of its own ({@link LifetimeJvm}), as a host that runs
 * one conversation per process lives. In the first, the user states a preference and a decision and
 * the agent edits a file and runs tests; nothing is remembered, flushed or consolidated by hand:
 * capture turns the conversation into observations, and closing the service ends the conversation's
 * session and consolidates it into durable memories. The second lifetime shows what the first left;
 * then a question that depends on it gets the memories that matter injected as one batched {@code
 * get_memory} call, and the model fetches the one about cents in full and answers with it. The demo
 * checks its own story and fails with a message saying what went wrong.
 *
 * <p>Run with {@code mvn -B -q -pl examples -am -DskipTests -Pdemo verify}; the first argument, if
 * any, is the directory to keep the memories in, else a temporary one is used. {@code Demo
 * --lifetime N DIR [STORY]} runs lifetime N alone; the demo starts both that way.
 */
public final class Demo {

  /** The first argument of a run that is one lifetime of the demo, started by the demo. */
  static final String LIFETIME = "--lifetime";

  /** Who the user is in both conversations. */
  static final String USER_NAME = "Dana";

  static final String PREFERENCE =
      "I prefer constructor injection over field injection in this codebase.";
  static final String DECISION =
      "We decided to keep money as long cents, never double. Money.add still goes through"
          + " double; please fix it.";
  static final String QUESTION =
      "Adding a discount: what did we decide about keeping money as cents or double?";

  /** The widest line the transcript prints. */
  private static final int WIDTH = 110;

  /**
   * Generous: the first recall in a fresh JVM pays for class loading and the model's first run, and
   * the demo is about what is injected, not about the default's latency budget.
   */
  private static final Duration RECALL_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How long closing the first lifetime may take to store the conversation and consolidate it. The
   * default is 5 seconds, and the next open finishes what a close cut short; the demo gives a slow
   * machine more, so that the second lifetime opens on the memories already written.
   */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  private Demo() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals(LIFETIME)) {
      lifetime(args);
      return;
    }
    Path directory;
    if (args.length > 0) {
      directory = Path.of(args[0]);
    } else {
      directory = Files.createTempDirectory("memhook-demo");
    }
    DemoModel model = DemoModel.fromEnvironment(System.getenv());
    System.out.println("model: " + model.description());
    System.out.println("memories in: " + directory + (args.length > 0 ? "" : " (temporary)"));
    run(directory, model, System.out);
    if (args.length == 0) {
      System.out.println();
      System.out.println("(pass a directory as the first argument to keep the memories)");
    }
  }

  /**
   * What the demo showed, for its tests.
   *
   * @param captured the ids of every memory the first lifetime left: observations and consolidated
   *     memories
   * @param injectedIds the ids the hook injected in conversation 2, in order
   * @param fetchedId the id the model fetched in full in conversation 2; null if a real model
   *     fetched none
   * @param fetchResult the {@code get_memory} result of that fetch; null for a real model
   * @param answer the model's final answer in conversation 2
   */
  record Story(
      List<MemoryId> captured,
      Set<MemoryId> injectedIds,
      MemoryId fetchedId,
      String fetchResult,
      String answer) {

    /** Writes the story to {@code file}, for the demo that started the lifetime telling it. */
    void write(Path file) throws IOException {
      Properties p = new Properties();
      p.setProperty("captured", ids(captured));
      p.setProperty("injected", ids(injectedIds));
      if (fetchedId != null) {
        p.setProperty("fetched", fetchedId.value());
      }
      if (fetchResult != null) {
        p.setProperty("fetchResult", fetchResult);
      }
      p.setProperty("answer", answer);
      try (Writer w = Files.newBufferedWriter(file, UTF_8)) {
        p.store(w, "the demo's story");
      }
    }

    /** The story {@link #write} wrote to {@code file}. */
    static Story read(Path file) throws IOException {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file, UTF_8)) {
        p.load(r);
      }
      String fetched = p.getProperty("fetched");
      return new Story(
          parse(p.getProperty("captured", "")),
          new LinkedHashSet<>(parse(p.getProperty("injected", ""))),
          fetched == null ? null : MemoryId.of(fetched),
          p.getProperty("fetchResult"),
          p.getProperty("answer"));
    }

    private static String ids(Collection<MemoryId> ids) {
      return String.join(" ", ids.stream().map(MemoryId::value).toList());
    }

    private static List<MemoryId> parse(String ids) {
      return Arrays.stream(ids.split(" ")).filter(s -> !s.isBlank()).map(MemoryId::of).toList();
    }
  }

  /**
   * Runs the demo on {@code model}: the first lifetime, then the second, each in a JVM of its own
   * ({@link LifetimeJvm}), printing what they print to {@code out}.
   *
   * @return the story the second lifetime told
   * @throws DemoFailure if a lifetime failed; its message is in what it printed
   */
  static Story run(Path directory, DemoModel model, PrintStream out) throws Exception {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(out, "out");
    Path story = Files.createTempFile("memhook-demo-story", ".properties");
    try {
      LifetimeJvm.run(1, List.of(directory.toString()), model, out);
      LifetimeJvm.run(2, List.of(directory.toString(), story.toString()), model, out);
      return Story.read(story);
    } finally {
      Files.deleteIfExists(story);
    }
  }

  /**
   * One lifetime, in the JVM {@link LifetimeJvm} started: {@code --lifetime 1 DIR} or {@code
   * --lifetime 2 DIR STORY}. Prints UTF-8; a failed story ends the JVM with exit code 2.
   */
  private static void lifetime(String[] args) throws Exception {
    if (args.length < 3) {
      throw new IllegalArgumentException("usage: Demo " + LIFETIME + " 1|2 DIR [STORY]");
    }
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, UTF_8);
    DemoModel model = DemoModel.fromEnvironment(System.getenv());
    Path directory = Path.of(args[2]);
    try {
      switch (args[1]) {
        case "1" -> firstLifetime(directory, model, out);
        case "2" -> secondLifetime(directory, model, out).write(Path.of(args[3]));
        default -> throw new IllegalArgumentException("no lifetime " + args[1] + ": 1 or 2");
      }
    } catch (DemoFailure e) {
      out.flush();
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }

  /** The service of each lifetime: the embedded default on {@code directory}. */
  private static MemoryService open(Path directory) {
    return Memhook.builder()
        .directory(directory)
        .capture(CaptureOptions.builder().closeTimeout(CLOSE_TIMEOUT).build())
        .build();
  }

  /**
   * Lifetime 1, conversation 1: nothing remembered, flushed or consolidated by hand; capture and
   * closing the service do the writing.
   */
  private static void firstLifetime(Path directory, DemoModel model, PrintStream out)
      throws Exception {
    header(out, "Lifetime 1: a JVM of its own, a service on the directory");
    try (MemoryService memory = open(directory)) {
      firstConversation(memory, model, out);
      out.println();
      out.println(
          "closing the service: capture ends the conversation's session and consolidates it");
    }
  }

  /** Conversation 1: nothing remembered by hand; the hook captures it. */
  private static void firstConversation(MemoryService memory, DemoModel model, PrintStream out)
      throws Exception {
    header(out, "Conversation 1: " + USER_NAME + " works with the agent (capture is on)");
    ChatHarness conversation = model.newChat();
    ChatService chat = conversation.chat();
    AtomicInteger testRuns = new AtomicInteger();
    chat.registerTool(
        new ToolDefinition(
            ScriptedModel.EDIT_FILE,
            "Edit a file of the workspace.",
            "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
                + "\"change\":{\"type\":\"string\"}}}"),
        call ->
            CompletableFuture.completedFuture(
                ToolResult.success(
                    "Edited "
                        + call.arguments().get("path")
                        + ": "
                        + call.arguments().get("change")
                        + " (1 file changed)")));
    chat.registerTool(
        new ToolDefinition(
            ScriptedModel.RUN_TESTS,
            "Run the project's tests.",
            "{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}"),
        call ->
            CompletableFuture.completedFuture(
                testRuns.incrementAndGet() == 1
                    ? ToolResult.failure(
                        "> Task :test\n"
                            + "MoneyTest > addsCents FAILED\n"
                            + "    org.opentest4j.AssertionFailedError: expected: <1005> but was:"
                            + " <1004>\n"
                            + "        at shop.MoneyTest.addsCents(MoneyTest.java:23)\n"
                            + "Tests run: 12, Failures: 1\n"
                            + "BUILD FAILED in 3s")
                    : ToolResult.success(
                        "> Task :test\nTests run: 12, Failures: 0\nBUILD SUCCESSFUL in 3s")));
    Set<MemoryId> injectedFirst;
    try (MemoryHook hook =
        memory.hookInto(
            chat,
            HookOptions.builder().userName(USER_NAME).recallTimeout(RECALL_TIMEOUT).build())) {
      await(conversation.sendUser(PREFERENCE), model);
      await(conversation.sendUser(DECISION), model);
      injectedFirst = hook.injectedIds();
    }
    transcript(out, chat.messages());
    out.println(
        "injected: " + (injectedFirst.isEmpty() ? "nothing (no memories yet)" : injectedFirst));
  }

  /**
   * Lifetime 2: what the first left, then conversation 2 on it.
   *
   * @return the story, for the demo that started this lifetime
   */
  private static Story secondLifetime(Path directory, DemoModel model, PrintStream out)
      throws Exception {
    header(out, "Lifetime 2: a new JVM, a new service on the same directory");
    try (MemoryService memory = open(directory)) {
      List<Memory> captured = new ArrayList<>();
      memory.maintenance().export(captured::add);
      List<Session> sessions = memory.capture().sessions();
      if (sessions.isEmpty()) {
        throw new DemoFailure("conversation 1 was not captured: no session was recorded");
      }
      long observations = captured.stream().filter(m -> m.type() == MemoryType.OBSERVATION).count();
      out.println("what lifetime 1 left (no remember, flush or consolidate call anywhere):");
      out.println("observations: " + observations);
      for (Session s : sessions) {
        out.println(
            line(
                "session "
                    + s.id()
                    + ": "
                    + s.status()
                    + " (ended when lifetime 1 closed), "
                    + s.observationCount()
                    + " observations, summary: "
                    + s.summary()));
      }
      out.println("consolidated memories:");
      for (Memory m : captured) {
        if (m.type() != MemoryType.OBSERVATION) {
          out.println(line("  " + m.type() + "  " + m.content()));
        }
      }
      if (observations == 0) {
        throw new DemoFailure("conversation 1 left no observations: capture did not run");
      }
      if (observations == captured.size()) {
        throw new DemoFailure(
            "conversation 1 was not consolidated when lifetime 1 closed: sessions " + sessions);
      }
      return secondConversation(memory, model, captured, out);
    }
  }

  /** Conversation 2, a new lifetime: the hook injects, the model fetches in full and answers. */
  private static Story secondConversation(
      MemoryService memory, DemoModel model, List<Memory> captured, PrintStream out)
      throws Exception {
    header(out, "Conversation 2: a new conversation, with what lifetime 1 left");
    ChatHarness conversation = model.newChat();
    ChatService chat = conversation.chat();
    Set<MemoryId> injected;
    List<InjectionReceipt> receipts;
    try (MemoryHook hook =
        memory.hookInto(
            chat,
            HookOptions.builder().userName(USER_NAME).recallTimeout(RECALL_TIMEOUT).build())) {
      await(conversation.sendUser(QUESTION), model);
      injected = hook.injectedIds();
      receipts = hook.receipts();
    }
    List<ChatMessage> messages = chat.messages();
    transcript(out, messages);

    if (injected.isEmpty()) {
      throw new DemoFailure(
          "nothing was injected in conversation 2: recall found no memory of conversation 1\n"
              + ReceiptLines.of(receipts));
    }
    if (!model.isScripted()) {
      return realModelEnding(captured, injected, messages, out);
    }
    ToolCall fetch =
        messages.stream()
            .filter(
                m ->
                    m.role() == ChatRole.TOOL_CALL
                        && m.origin() == MessageOrigin.MODEL
                        && m.toolCall().toolName().equals(ScriptedModel.GET_MEMORY))
            .map(ChatMessage::toolCall)
            .findFirst()
            .orElseThrow(
                () ->
                    new DemoFailure(
                        "the model did not fetch a memory: none of the injected summaries ("
                            + injected
                            + ") mentions cents\n"
                            + ReceiptLines.of(receipts)));
    MemoryId fetchedId = MemoryId.of(String.valueOf(fetch.arguments().get("id")));
    String fetchResult =
        messages.stream()
            .filter(m -> m.role() == ChatRole.TOOL_RESULT && m.toolCall().id().equals(fetch.id()))
            .map(ChatMessage::text)
            .findFirst()
            .orElseThrow(() -> new DemoFailure("the model's get_memory call got no result"));
    String answer = messages.get(messages.size() - 1).text();
    Memory fetched =
        memory
            .get(fetchedId)
            .orElseThrow(() -> new DemoFailure("the fetched memory " + fetchedId + " is gone"));
    if (!injected.contains(fetchedId)) {
      throw new DemoFailure("the model fetched " + fetchedId + ", which was not injected");
    }
    if (!answer.startsWith(ScriptedModel.ANSWER_PREFIX)) {
      throw new DemoFailure("the model did not answer from memory; it said: " + answer);
    }

    header(out, "Why it worked");
    out.println(line("injected by the hook: " + injected));
    out.println(line("fetched in full by the model: " + fetchedId + " (" + fetched.type() + ")"));
    out.println(line("  " + fetched.content()));
    return new Story(ids(captured), injected, fetchedId, fetchResult, answer);
  }

  /**
   * A real model decides for itself whether to fetch a memory in full and how to answer: the demo
   * shows what it did and checks only what Memhook controls (capture and injection, above).
   */
  private static Story realModelEnding(
      List<Memory> captured, Set<MemoryId> injected, List<ChatMessage> messages, PrintStream out) {
    List<ChatMessage> fetches =
        messages.stream()
            .filter(
                m ->
                    m.role() == ChatRole.TOOL_CALL
                        && m.origin() == MessageOrigin.MODEL
                        && m.toolCall().toolName().equals(ScriptedModel.GET_MEMORY))
            .toList();
    String answer = messages.get(messages.size() - 1).text();
    header(out, "What the real model did with its memories");
    out.println(line("injected by the hook: " + injected));
    out.println(
        fetches.isEmpty()
            ? "it did not fetch a memory in full; it answered from the summaries"
            : line(
                "it fetched in full: "
                    + fetches.stream().map(m -> m.toolCall().arguments()).toList()));
    out.println(line("its answer: " + answer));
    MemoryId fetchedId = null;
    if (!fetches.isEmpty()
        && fetches.get(0).toolCall().arguments().get("id") instanceof String id
        && MemoryId.isValid(id)) {
      fetchedId = MemoryId.of(id);
    }
    return new Story(ids(captured), injected, fetchedId, null, answer);
  }

  private static List<MemoryId> ids(List<Memory> memories) {
    return memories.stream().map(Memory::id).toList();
  }

  private static void header(PrintStream out, String title) {
    out.println();
    out.println("== " + title + " ==");
  }

  /** Prints the conversation one message a line: role, origin, text. */
  private static void transcript(PrintStream out, List<ChatMessage> messages) {
    for (ChatMessage m : messages) {
      String what = m.role().toString().toLowerCase(Locale.ROOT);
      List<ScriptedModel.Summary> summaries =
          m.role() == ChatRole.TOOL_RESULT && m.toolCall().arguments().containsKey("ids")
              ? ScriptedModel.summaries(m.text())
              : List.of();
      if (summaries.isEmpty()) {
        out.println(line(String.format("%-11s %-9s %s", what, m.origin(), m.text())));
        continue;
      }
      out.println(String.format("%-11s %-9s %d summaries:", what, m.origin(), summaries.size()));
      for (ScriptedModel.Summary s : summaries) {
        out.println(line("                        " + s.id() + "  " + s.text()));
      }
    }
  }

  /** One line of output: newlines shown as " | ", cut to {@link #WIDTH}. */
  private static String line(String text) {
    String flat = text.replace("\r", "").replace("\n", " | ");
    return flat.length() <= WIDTH ? flat : flat.substring(0, WIDTH - 1) + "…";
  }

  private static void await(java.util.concurrent.CompletionStage<Void> send, DemoModel model)
      throws InterruptedException, ExecutionException, TimeoutException {
    send.toCompletableFuture().get(model.turnTimeout().toSeconds(), TimeUnit.SECONDS);
  }

  /** The demo's story did not happen as it should; the message says which step failed. */
  static final class DemoFailure extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
      super("demo failed: " + message);
    }
  }
}
