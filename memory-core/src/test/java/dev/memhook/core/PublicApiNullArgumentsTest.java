package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.reflect.ClassPath;
import com.google.common.testing.NullPointerTester;
import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.ExportResult;
import dev.memhook.api.ExportedMemory;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.HookOptions;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.MemoryVector;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Reranker;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.SourcePin;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.capture.ObservationKind;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.ListenerStats;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.StoreFixtures;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public method and constructor of the API rejects a null argument with a {@link
 * NullPointerException}, as the API's Javadoc promises, except where the Javadoc says the argument
 * may be null. Guava's {@link NullPointerTester} passes null to one parameter at a time; records
 * are swept by their own test below, from a valid instance, because the tester's default arguments
 * (an empty string, version 0) break a record's other rules before it reaches the null.
 *
 * <p>The types are found on the class path, so a new public type of {@code dev.memhook.api} joins
 * the sweep by itself; a new record must be given a sample (the sweep fails until it is).
 */
class PublicApiNullArgumentsTest {

  private static final Instant T0 = Instant.parse("2024-01-01T10:00:00Z");
  private static final Memory MEMORY = StoreFixtures.memory("m1", Scope.DEFAULT, "the memory");
  private static final ToolCall CALL = new ToolCall("call-1", "get_memory", Map.of("id", "m1"));

  /** A valid instance of every public record of the API; its components feed the record sweep. */
  private static final LifecycleEvent EVENT =
      LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s1")
          .project("shop")
          .cwd("/w")
          .data(EventData.tool("Bash", "ls", "pom.xml"))
          .build();

  private static final ReceiptCandidate CANDIDATE =
      new ReceiptCandidate(
          MemoryId.of("m1"),
          Scope.DEFAULT,
          "msg_1",
          0.5,
          List.of(new SignalHit(Signal.TEXT, 1, 2.0)),
          ReceiptCandidate.Decision.SELECTED,
          "text #1");

  private static final RequestAppearance APPEARANCE =
      new RequestAppearance("attempt-1", "msg_2", "msg_3", T0);

  private static final Map<Class<?>, Record> RECORDS =
      samples(
          MEMORY,
          MemoryDraft.of(Scope.DEFAULT, "the draft"),
          MemoryId.of("m1"),
          Scope.DEFAULT,
          Origin.user("alice"),
          new SourcePin("src/App.java", "sha256:abc"),
          RecallQuery.of(Scope.DEFAULT, "what"),
          RecallResult.empty(),
          new RecalledMemory(MEMORY, 0.5, List.of(new SignalHit(Signal.TEXT, 1, 2.0))),
          new SignalHit(Signal.TEXT, 1, 2.0),
          new DroppedCandidate(MemoryId.of("m1"), DroppedCandidate.Rule.LIMIT, "ranked 6th"),
          new ForgetRecord(MemoryId.of("m1"), Scope.DEFAULT, "alice", "why", T0),
          HookOptions.defaults(),
          new StoreHit(MemoryId.of("m1"), 1.0),
          TextHits.none(),
          new TypeListing(List.of(MEMORY), 1),
          new SessionWindow(List.of(MemoryId.of("m1")), List.of()),
          new StandingProfile(Scope.DEFAULT, List.of(MEMORY), 40, 0),
          new EmbeddingSpace("model", 4),
          new SimilarityCalibration(0.1, 0.09),
          new ExportResult(1, 0),
          new ImportProgress(1, 2, java.time.Duration.ofSeconds(1)),
          new ExportedMemory(MEMORY, java.util.Optional.of(MemoryVector.of("model", 1f, 0f))),
          new RestoreResult(0, 1, 2),
          ChatMessage.user("hello"),
          CALL,
          new ToolDefinition("get_memory", "reads memories", "{}"),
          ToolResult.success("ok"),
          CaptureOptions.defaults(),
          EVENT,
          EventData.tool("Bash", "ls", "pom.xml"),
          new Session(
              "s1",
              Scope.DEFAULT,
              "shop",
              "/w",
              T0,
              T0,
              T0,
              SessionStatus.COMPLETED,
              2,
              "hi",
              "did"),
          CaptureStats.NONE,
          new Observation(
              MemoryId.of("obs-1"),
              LifecycleEventType.POST_TOOL_USE,
              Scope.DEFAULT,
              "s1",
              "shop",
              "/w",
              Origin.tool("Bash"),
              "Bash",
              T0,
              T0,
              EventData.tool("Bash", "ls", "pom.xml"),
              "PostToolUse Bash",
              false),
          new CompressedObservation(
              "Ran ls",
              List.of("Ran ls."),
              "Listed.",
              List.of("bash"),
              List.of(),
              ObservationKind.COMMAND_RUN,
              0.3),
          new Consolidation(
              MemoryType.FACT,
              "Fact",
              "The build uses Maven.",
              List.of(),
              List.of(),
              0.5,
              List.of()),
          PhaseStatus.skipped("nothing to do"),
          CANDIDATE,
          APPEARANCE,
          new InjectionReceipt(
              "rcpt_1",
              "hook_1",
              List.of(Scope.DEFAULT),
              HookPhase.BEFORE_SEND_LOOP,
              T0,
              List.of("msg_1"),
              List.of(CANDIDATE),
              List.of(MemoryId.of("m1")),
              "call_1",
              InjectionReceipt.Representation.SUMMARY,
              PhaseStatus.skipped("a"),
              PhaseStatus.skipped("b"),
              PhaseStatus.skipped("c"),
              PhaseStatus.skipped("d"),
              List.of(APPEARANCE),
              Map.of(Signal.TEXT, java.time.Duration.ofMillis(1))),
          new FetchRecord(
              "hook_1",
              "call_2",
              T0,
              Map.of("id", "m1"),
              Map.of("id", "m1"),
              List.of(new FetchRecord.FetchedId("m1", FetchRecord.Outcome.FOUND)),
              InjectionReceipt.Representation.FULL,
              "not_found"),
          new FetchRecord.FetchedId("m1", FetchRecord.Outcome.FORGOTTEN),
          new CaptureEvent(
              CaptureEvent.Kind.MEMORY_FORGOTTEN,
              T0,
              Scope.DEFAULT,
              "s1",
              MemoryId.of("m1"),
              "forgotten by alice"),
          new ListenerStats(1, 0, 0),
          new SubmittedRequest("attempt-1", List.of(ChatMessage.user("hello"))));

  /** Record components whose Javadoc says they may be null. */
  private static final Map<Class<?>, Set<String>> NULLABLE_COMPONENTS =
      Map.ofEntries(
          Map.entry(Memory.class, Set.of("sourceSession", "supersedes")),
          Map.entry(MemoryDraft.class, Set.of("sourceSession", "occurredAt")),
          Map.entry(Origin.class, Set.of("name")),
          Map.entry(RecallQuery.class, Set.of("asOf", "excludedSession")),
          Map.entry(ChatMessage.class, Set.of("toolCall")),
          Map.entry(HookOptions.class, Set.of("sessionId", "userName", "assistantName")),
          Map.entry(CaptureOptions.class, Set.of("compressor", "consolidator", "journalDirectory")),
          Map.entry(LifecycleEvent.class, Set.of("project", "cwd", "timestamp", "eventId")),
          Map.entry(
              EventData.class,
              Set.of(
                  "toolName",
                  "input",
                  "output",
                  "prompt",
                  "error",
                  "agentName",
                  "message",
                  "speaker")),
          Map.entry(Session.class, Set.of("endedAt", "firstPrompt", "summary")),
          Map.entry(Observation.class, Set.of("toolName")),
          Map.entry(InjectionReceipt.class, Set.of("toolCallId")),
          Map.entry(FetchRecord.class, Set.of("errorCode")),
          Map.entry(CaptureEvent.class, Set.of("scope", "sessionId", "memoryId")));

  @TempDir Path dir;

  @Test
  void staticMethodsAndConstructors_ofEveryPublicApiType_rejectNull() throws Exception {
    NullPointerTester tester = tester();
    // Documented: false for null, the one API method that takes null as an answerable question.
    tester.ignore(MemoryId.class.getMethod("isValid", String.class));
    // Documented: empty for null.
    tester.ignore(LifecycleEventType.class.getMethod("fromWire", String.class));
    // Documented: every component of EventData may be null, so its factories take null.
    for (java.lang.reflect.Method m : EventData.class.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers())) {
        tester.ignore(m);
      }
    }
    for (Class<?> type : apiTypes()) {
      tester.testAllPublicStaticMethods(type);
      // Records are swept below. The MemoryException family takes a null message or cause, as
      // every Throwable does; left out, though its Javadoc does not say so.
      if (!type.isRecord() && !Throwable.class.isAssignableFrom(type)) {
        tester.testAllPublicConstructors(type);
      }
    }
    assertFalse(MemoryId.isValid(null));
  }

  @Test
  void everyPublicRecord_rejectsNullForEachComponentItsJavadocDoesNotCallNullable()
      throws Exception {
    Set<String> missing = new TreeSet<>();
    for (Class<?> type : apiTypes()) {
      if (type.isRecord() && !RECORDS.containsKey(type)) {
        missing.add(type.getName());
      }
    }
    assertEquals(Set.of(), missing, "give each public record a sample in RECORDS");
    List<String> swept = new ArrayList<>();
    for (Record sample : RECORDS.values()) {
      RecordComponent[] components = sample.getClass().getRecordComponents();
      Class<?>[] types =
          Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
      Constructor<?> canonical = sample.getClass().getDeclaredConstructor(types);
      Object[] valid = new Object[components.length];
      for (int i = 0; i < components.length; i++) {
        valid[i] = components[i].getAccessor().invoke(sample);
      }
      canonical.newInstance(valid); // the sample's own components are accepted
      Set<String> nullable = NULLABLE_COMPONENTS.getOrDefault(sample.getClass(), Set.of());
      for (int i = 0; i < components.length; i++) {
        if (types[i].isPrimitive() || nullable.contains(components[i].getName())) {
          continue;
        }
        Object[] args = valid.clone();
        args[i] = null;
        String what = sample.getClass().getSimpleName() + "." + components[i].getName();
        Throwable thrown =
            assertThrows(
                    java.lang.reflect.InvocationTargetException.class,
                    () -> canonical.newInstance(args),
                    what + " accepted null")
                .getCause();
        assertTrue(thrown instanceof NullPointerException, what + " threw " + thrown);
        swept.add(what);
      }
    }
    assertTrue(
        swept.contains("Memory.id") && swept.contains("ToolCall.arguments"), swept.toString());
  }

  @Test
  void instanceMethods_ofTheApisValuesAndBuilders_rejectNull() throws Exception {
    NullPointerTester tester = tester();
    tester.ignore(
        MemoryDraft.Builder.class.getMethod("sourceSession", String.class)); // "null clears it"
    tester.ignore(
        MemoryDraft.Builder.class.getMethod(
            "occurredAt", Instant.class)); // "null means when stored"
    tester.ignore(
        Memory.Builder.class.getMethod("sourceSession", String.class)); // "null clears it"
    tester.ignore(Memory.Builder.class.getMethod("supersedes", MemoryId.class)); // "null clears it"
    tester.ignore(EventData.class.getMethod("withSpeaker", String.class)); // "null clears it"
    tester.ignore(
        RecallQuery.class.getMethod("withAsOf", Instant.class)); // "null: the clock's now"
    tester.ignore(
        RecallQuery.class.getMethod("excludingSession", String.class)); // "null leaves none out"
    for (String optional : List.of("project", "cwd", "eventId")) {
      tester.ignore(LifecycleEvent.Builder.class.getMethod(optional, String.class)); // "means none"
    }
    tester.ignore(LifecycleEvent.Builder.class.getMethod("timestamp", Instant.class)); // "now"
    for (Record sample : RECORDS.values()) {
      tester.testAllPublicInstanceMethods(sample);
    }
    tester.testAllPublicInstanceMethods(Embedding.of(1f, 0f));
    tester.testAllPublicInstanceMethods(MemoryVector.of("model", 1f, 0f));
    tester.testAllPublicStaticMethods(MemoryVector.class);
    tester.testAllPublicInstanceMethods(RecallOptions.defaults());
    tester.testAllPublicInstanceMethods(RecallOptions.builder());
    tester.testAllPublicInstanceMethods(HookOptions.builder());
    tester.testAllPublicInstanceMethods(MemoryDraft.builder(Scope.DEFAULT, "x"));
    tester.testAllPublicInstanceMethods(Memory.builder());
    tester.testAllPublicInstanceMethods(
        LifecycleEvent.builder(LifecycleEventType.SESSION_START, "s1"));
  }

  @Test
  void theBuilder_theService_theStoreAndTheHashingEmbedder_rejectNull() {
    NullPointerTester tester = tester();
    tester.testAllPublicStaticMethods(Memhook.class);
    tester.testAllPublicInstanceMethods(Memhook.builder());
    tester.testAllPublicStaticMethods(LuceneMemoryStore.class);
    tester.testAllPublicInstanceMethods(LuceneMemoryStore.builder());
    tester.testAllPublicStaticMethods(HashingEmbedder.class);
    try (HashingEmbedder embedder = HashingEmbedder.create()) {
      tester.testAllPublicInstanceMethods(embedder);
    }
    try (MemoryService service =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      tester.testAllPublicInstanceMethods(service);
      tester.testAllPublicInstanceMethods(service.capture());
      tester.testAllPublicInstanceMethods(service.maintenance());
      tester.testAllPublicInstanceMethods(service.trace());
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.inMemory()) {
      store.attach(StoreFixtures.SPACE);
      tester.testAllPublicInstanceMethods(store);
      assertEquals(0, store.count(Scope.DEFAULT), "no call with a null argument wrote anything");
    }
  }

  private NullPointerTester tester() {
    NullPointerTester tester = new NullPointerTester();
    tester.setDefault(int.class, 1); // a valid k, limit or count
    tester.setDefault(Scope.class, Scope.DEFAULT);
    tester.setDefault(MemoryId.class, MemoryId.of("m1"));
    tester.setDefault(RequestAppearance.class, APPEARANCE);
    tester.setDefault(Memory.class, MEMORY);
    tester.setDefault(MemoryDraft.class, MemoryDraft.of(Scope.DEFAULT, "the draft"));
    tester.setDefault(Origin.class, Origin.user());
    tester.setDefault(SourcePin.class, new SourcePin("src/App.java", "sha256:abc"));
    tester.setDefault(RecallQuery.class, RecallQuery.of(Scope.DEFAULT, "what"));
    tester.setDefault(
        ForgetRecord.class, new ForgetRecord(MemoryId.of("m1"), Scope.DEFAULT, "alice", "why", T0));
    tester.setDefault(HookOptions.class, HookOptions.defaults());
    tester.setDefault(CaptureOptions.class, CaptureOptions.defaults());
    tester.setDefault(LifecycleEvent.class, EVENT);
    tester.setDefault(EventData.class, EventData.EMPTY);
    tester.setDefault(LifecycleEventType.class, LifecycleEventType.POST_TOOL_USE);
    tester.setDefault(MemoryListener.class, MemoryListener.NONE);
    tester.setDefault(RecallOptions.class, RecallOptions.defaults());
    tester.setDefault(Reranker.class, (query, candidates) -> candidates);
    tester.setDefault(Embedding.class, StoreFixtures.vector(1));
    tester.setDefault(EmbeddingSpace.class, StoreFixtures.SPACE);
    tester.setDefault(ChatService.class, FakeChatService.create());
    tester.setDefault(ToolCall.class, CALL);
    tester.setDefault(ToolResult.class, ToolResult.success("ok"));
    tester.setDefault(StoreHit.class, new StoreHit(MemoryId.of("m1"), 1.0));
    tester.setDefault(Instant.class, T0);
    tester.setDefault(Duration.class, Duration.ofSeconds(1));
    tester.setDefault(Clock.class, Clock.systemUTC());
    tester.setDefault(Executor.class, Runnable::run);
    tester.setDefault(Path.class, dir.resolve("unused"));
    return tester;
  }

  /** Every public class, record, enum and interface of memory-api, nested ones included. */
  private static List<Class<?>> apiTypes() throws IOException {
    List<Class<?>> out = new ArrayList<>();
    ClassPath classPath = ClassPath.from(PublicApiNullArgumentsTest.class.getClassLoader());
    for (String pkg :
        List.of(
            "dev.memhook.api",
            "dev.memhook.api.spi",
            "dev.memhook.api.chat",
            "dev.memhook.api.capture",
            "dev.memhook.api.trace")) {
      for (ClassPath.ClassInfo info : classPath.getTopLevelClasses(pkg)) {
        addPublic(info.load(), out);
      }
    }
    assertTrue(
        out.contains(MemoryService.class)
            && out.contains(ToolCall.class)
            && out.contains(TextHits.class)
            && out.contains(InjectionReceipt.class),
        "found " + out);
    return out;
  }

  private static void addPublic(Class<?> type, List<Class<?>> out) {
    if (!Modifier.isPublic(type.getModifiers())) {
      return;
    }
    out.add(type);
    for (Class<?> nested : type.getDeclaredClasses()) {
      addPublic(nested, out);
    }
  }

  private static Map<Class<?>, Record> samples(Record... records) {
    Map<Class<?>, Record> out = new LinkedHashMap<>();
    for (Record r : records) {
      out.put(r.getClass(), r);
    }
    return out;
  }
}
