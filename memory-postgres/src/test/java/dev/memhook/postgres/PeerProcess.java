package dev.memhook.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The second JVM of {@link TwoJvmTest}: a {@link MemoryService} over a {@link PostgresMemoryStore}
 * on the database named by {@value TestDatabase#URL_VARIABLE} and the schema given as the only
 * argument, driven by a line protocol on stdin and answering on stdout, one line per command:
 *
 * <pre>
 * remember SCOPE TEXT...   ok ID
 * recall SCOPE QUERY...    ok ID ID ...      (best first; "ok" alone when nothing is recalled)
 * forget ID                ok true|false
 * quit                     ok                (then exits)
 * </pre>
 *
 * It prints {@code ready} once the service is open. A command that fails answers {@code error} and
 * the exception on one line, and the process keeps serving; stdin closing ends it. Everything else
 * the process prints (logging, a stray {@code System.out}) goes to stderr, so stdout carries the
 * protocol only.
 *
 * <p>{@link #openService} is also how the test's own JVM opens its service, so both sides run the
 * same configuration.
 */
final class PeerProcess {
  /** Recalled per query: more than any test scope holds, so a recall returns the whole scope. */
  static final int RECALL_LIMIT = 10;

  private PeerProcess() {}

  /**
   * A service over a new store in {@code schema} of {@code dataSource}: the deterministic hashing
   * embedder (no model), capture off (no journal), and the relevance gate off, so a recall returns
   * every memory of the scope its signals find and a test can compare exact id lists. The caller
   * closes the service (which closes the store) and then the data source.
   */
  static MemoryService openService(DataSource dataSource, String schema) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(dataSource).schema(schema).build();
    return Memhook.builder()
        .store(store)
        .embedder(HashingEmbedder.create())
        .recallOptions(RecallOptions.builder().noRelevanceGate().build())
        .noCapture()
        .build();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: PeerProcess SCHEMA (the JDBC URL in the environment)");
      System.exit(2);
    }
    String url = System.getenv(TestDatabase.URL_VARIABLE);
    if (url == null || url.isBlank()) {
      System.err.println("PeerProcess: " + TestDatabase.URL_VARIABLE + " is not set");
      System.exit(2);
    }
    PrintStream protocol = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(4);
    config.setPoolName("memhook-peer");
    try (HikariDataSource dataSource = new HikariDataSource(config);
        MemoryService memory = openService(dataSource, args[0])) {
      protocol.println("ready");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("quit")) {
          protocol.println("ok");
          break;
        }
        protocol.println(answer(memory, line));
      }
    }
  }

  private static String answer(MemoryService memory, String line) {
    try {
      String[] parts = line.split(" ", 3);
      switch (parts[0]) {
        case "remember":
          return "ok "
              + memory.remember(MemoryDraft.of(new Scope(parts[1]), parts[2])).id().value();
        case "recall":
          return ("ok "
                  + memory
                      .recall(new RecallQuery(new Scope(parts[1]), parts[2], RECALL_LIMIT))
                      .memories()
                      .stream()
                      .map(RecalledMemory::memory)
                      .map(m -> m.id().value())
                      .collect(Collectors.joining(" ")))
              .strip();
        case "forget":
          return "ok " + memory.forget(MemoryId.of(parts[1]));
        default:
          return "error unknown command: " + line;
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      return ("error " + e).replace('\n', ' ');
    }
  }
}
