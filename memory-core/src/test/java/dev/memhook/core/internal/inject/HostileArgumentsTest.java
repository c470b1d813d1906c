package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.ToolFixtures.bounded;
import static dev.memhook.core.internal.inject.ToolFixtures.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.HostileText;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arguments a model might send get_memory, generated: each call answers with a structured error or
 * a result within the budget, never throws, logs a bounded line that holds no argument value, and
 * changes nothing stored.
 */
class HostileArgumentsTest {

  /** The scope pairs of the scope tests: a prefix, a case variant and a trailing dot. */
  private static final List<Scope> SCOPES =
      List.of(Scope.of("acme"), Scope.of("acme", "alice"), Scope.of("ACME"), Scope.of("acme."));

  private static final int CALLS = 1_500;
  private static final String SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
  private static final String HUGE = "HUGE".repeat(10 * 1024 * 1024 / 4);
  private static final int DEPTH = 10_000;

  static LongStream seeds() {
    return Seeds.seeds(3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyGeneratedCall_isABoundedAnswer_logsNoValue_andChangesNothingStored(long seed)
      throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    String where = Seeds.replay(seed);
    MemoryStore lucene = LuceneMemoryStore.inMemory();
    lucene.attach(new EmbeddingSpace("test", 2));
    List<Memory> all = new ArrayList<>();
    try {
      for (Scope scope : SCOPES) {
        for (int i = 0; i < 4; i++) {
          Memory m =
              memory(
                      "m_" + scope.value().replace('/', '_') + "_" + i,
                      scope,
                      "about "
                          + scope
                          + " "
                          + "token-"
                          + scope.value()
                          + " "
                          + HostileText.storable(r, r.nextInt(3_000)))
                  .build();
          lucene.put(m, Embedding.of(1f, 0f));
          all.add(lucene.get(m.id()).orElseThrow());
        }
      }
    } catch (RuntimeException e) {
      // a failure here happens before any assertion that names the seed
      throw new AssertionError("storing the generated memories failed; " + where, e);
    }
    Map<Scope, Long> counts = new HashMap<>();
    SCOPES.forEach(s -> counts.put(s, lucene.count(s)));
    WriteGuard store = new WriteGuard(lucene, r.split());
    Scope scope = SCOPES.get(r.nextInt(SCOPES.size()));
    HookOptions options =
        r.nextBoolean()
            ? HookOptions.builder().scope(scope).build()
            : HookOptions.builder()
                .scope(scope)
                .maxMemoryChars(HookOptions.MIN_MEMORY_CHARS)
                .maxResultChars(HookOptions.MIN_RESULT_CHARS)
                .build();
    GetMemoryTool tool = new GetMemoryTool(store, options);
    Arguments generator = new Arguments(r, all);

    PrintStream err = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int errors = 0;
    int loggedCalls = 0;
    try {
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      for (int call = 0; call < CALLS; call++) {
        Map<String, Object> args = generator.next();
        log.reset();
        ToolResult result =
            tool.execute(ToolCall.of(GetMemoryTool.NAME, args))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        String context = where + ", call " + call + ": " + FetchArguments.describe(args);
        bounded(result, options.maxResultChars(), context);
        errors += result.error() ? 1 : 0;
        for (Scope other : SCOPES) {
          if (!other.equals(scope)) {
            assertFalse(
                result.content().contains("token-" + other.value() + " "),
                "another scope's memory leaked: " + context);
          }
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        loggedCalls += logged.contains("get_memory failed for arguments") ? 1 : 0;
        assertTrue(logged.length() < 20_000, "a bounded log: " + logged.length() + " " + context);
        assertFalse(logged.contains(SECRET) || logged.contains(HUGE.substring(0, 60)), context);
      }
    } finally {
      System.setErr(err);
    }
    assertTrue(errors > CALLS / 10 && errors < CALLS, "both errors and answers: " + errors);
    assertTrue(store.failures > 0, "the failing store path ran: " + where);
    assertTrue(loggedCalls > 0, "the log was captured, so its bound was checked: " + where);
    for (Memory m : all) {
      assertEquals(m, lucene.get(m.id()).orElseThrow(), "nothing stored changes: " + where);
    }
    SCOPES.forEach(s -> assertEquals(counts.get(s), lucene.count(s), where));
    lucene.close();
  }

  /** Generates argument maps as a host would pass them, parsed from whatever the model sent. */
  private static final class Arguments {
    private final SplittableRandom r;
    private final List<Memory> memories;
    private final List<Object> deepList;
    private final Map<String, Object> deepMap;

    Arguments(SplittableRandom r, List<Memory> memories) {
      this.r = r;
      this.memories = memories;
      List<Object> list = new ArrayList<>();
      Map<String, Object> map = new LinkedHashMap<>();
      this.deepList = list;
      this.deepMap = map;
      for (int i = 0; i < DEPTH; i++) { // built by iteration: nothing here recurses
        List<Object> inner = new ArrayList<>();
        list.add(inner);
        list = inner;
        Map<String, Object> innerMap = new LinkedHashMap<>();
        map.put("id", innerMap);
        map = innerMap;
      }
    }

    Map<String, Object> next() {
      Map<String, Object> args = new LinkedHashMap<>();
      int keys = r.nextInt(5);
      for (int i = 0; i < keys; i++) {
        args.put(key(), value());
      }
      if (r.nextInt(4) == 0) {
        // mostly well-formed shapes, so deep paths run too
        args.clear();
        if (r.nextBoolean()) {
          args.put("id", id());
          if (r.nextBoolean()) {
            args.put("offset", r.nextBoolean() ? r.nextInt(5_000) : value());
          }
        } else {
          List<Object> ids = new ArrayList<>();
          int n = 1 + r.nextInt(r.nextBoolean() ? GetMemoryTool.MAX_FULL_IDS : 60);
          for (int i = 0; i < n; i++) {
            ids.add(r.nextInt(10) == 0 ? value() : id());
          }
          args.put("ids", ids);
          if (r.nextBoolean()) {
            args.put("summary", r.nextInt(5) == 0 ? value() : Boolean.TRUE);
          }
        }
      }
      return args;
    }

    private String key() {
      return switch (r.nextInt(8)) {
        case 0 -> "ids";
        case 1, 2 -> "id";
        case 3 -> "summary";
        case 4 -> "offset";
        case 5 -> null;
        case 6 -> HUGE;
        default -> HostileText.of(r, r.nextInt(30));
      };
    }

    private String id() {
      return switch (r.nextInt(6)) {
        case 0, 1, 2 -> memories.get(r.nextInt(memories.size())).id().value();
        case 3 -> "mem_unknown_" + r.nextInt(3);
        case 4 -> "id:mem_* OR scope:acme~ AND \"(";
        default -> HostileText.of(r, r.nextInt(200));
      };
    }

    private Object value() {
      return switch (r.nextInt(17)) {
        case 0 -> HUGE;
        case 1 -> SECRET;
        case 2 -> deepList;
        case 3 -> deepMap;
        case 4 -> null;
        case 5 -> r.nextBoolean();
        case 6 -> r.nextInt();
        case 7 -> r.nextLong();
        case 8 -> r.nextDouble() * 1e12 - 5e11;
        case 9 -> Double.NaN;
        case 10 -> new BigDecimal("1e" + (r.nextBoolean() ? "" : "-") + r.nextInt(1_000_000_000));
        case 11 -> BigInteger.TWO.pow(r.nextInt(100_000));
        case 12 -> List.of(id(), id(), id());
        case 13 -> List.of(HUGE, 1, List.of());
        case 14 -> "\u0000\ud800" + HostileText.of(r, 50);
        case 15 -> id();
        default -> HostileText.of(r, r.nextInt(100));
      };
    }
  }

  /**
   * Fails the test on any write; reads fail now and then, to run the tool's failure path: the first
   * read always, so that every seed runs it however few of its calls reach the store, then one in
   * twenty.
   */
  private static final class WriteGuard extends ForwardingMemoryStore {
    private final SplittableRandom r;
    int failures;

    WriteGuard(MemoryStore delegate, SplittableRandom r) {
      super(delegate);
      this.r = r;
    }

    private void maybeFail() {
      if (failures == 0 || r.nextInt(20) == 0) {
        failures++;
        throw new IllegalStateException("store failure for the test");
      }
    }

    @Override
    public java.util.Optional<Memory> get(MemoryId id) {
      maybeFail();
      return super.get(id);
    }

    @Override
    public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
      maybeFail();
      return super.getAll(ids);
    }

    @Override
    public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
      throw new AssertionError("get_memory wrote to the store");
    }

    @Override
    public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
      throw new AssertionError("get_memory wrote to the store");
    }

    @Override
    public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
      throw new AssertionError("get_memory wrote to the store");
    }

    @Override
    public boolean delete(MemoryId id, ForgetRecord audit) {
      throw new AssertionError("get_memory wrote to the store");
    }

    @Override
    public void attach(EmbeddingSpace space) {
      throw new AssertionError("get_memory attached the store");
    }
  }
}
