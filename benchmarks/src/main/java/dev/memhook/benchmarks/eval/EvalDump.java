package dev.memhook.benchmarks.eval;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes each query's raw signal lists to a JSON Lines file ({@code --dump FILE}), so fusion and
 * gate rules can be replayed offline without storing and embedding the data again. One line per
 * recall the gate measurement makes: {@code kind} is {@code own} (an on-topic query against its own
 * conversation), {@code other} (the same query against the next conversation) or {@code question}
 * (a question no memory answers, against its own conversation). Each line holds the query, its
 * category and relevant eval ids, the store's text hits with their raw scores and the query's text
 * ceiling, the vector hits with their cosines, {@code depth} of each, straight from the store, and
 * {@code passages}: the best passage cosine of each memory either list holds, for a store that
 * keeps passage vectors (what recall ranks the vector list again by); no fusion, graph or gate.
 * Stateless.
 */
final class EvalDump {

  private EvalDump() {}

  static void write(
      Path file,
      EvalData data,
      Map<String, Scope> scopes,
      MemoryStore store,
      Embedder embedder,
      Map<MemoryId, String> evalIds,
      int depth)
      throws IOException {
    List<String> convs = new ArrayList<>(scopes.keySet());
    try (JsonGenerator g = new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
      for (EvalQuery q : data.queries()) {
        if (q.relevant().isEmpty()) {
          line(g, q, "question", scopes.get(q.conv()), store, embedder, evalIds, depth);
          continue;
        }
        line(g, q, "own", scopes.get(q.conv()), store, embedder, evalIds, depth);
        if (convs.size() > 1) {
          String other = convs.get((convs.indexOf(q.conv()) + 1) % convs.size());
          line(g, q, "other", scopes.get(other), store, embedder, evalIds, depth);
        }
      }
    }
  }

  private static void line(
      JsonGenerator g,
      EvalQuery q,
      String kind,
      Scope scope,
      MemoryStore store,
      Embedder embedder,
      Map<MemoryId, String> evalIds,
      int depth)
      throws IOException {
    TextHits text = store.searchText(scope, q.text(), depth);
    Embedding query = embedder.embedQuery(q.text());
    List<StoreHit> vector = store.searchVector(scope, query, depth);
    Set<MemoryId> pool = new LinkedHashSet<>();
    vector.forEach(h -> pool.add(h.id()));
    text.hits().forEach(h -> pool.add(h.id()));
    Map<MemoryId, Double> passages =
        pool.isEmpty() ? Map.of() : store.passageCosines(scope, pool, query);
    g.writeStartObject();
    g.writeStringField("id", q.id());
    g.writeStringField("kind", kind);
    g.writeStringField("category", q.categoryName());
    g.writeStringField("q", q.text());
    g.writeArrayFieldStart("relevant");
    for (String r : q.relevant()) {
      g.writeString(r);
    }
    g.writeEndArray();
    g.writeNumberField("ceiling", text.ceiling());
    hits(g, "text", text.hits(), evalIds);
    hits(g, "vector", vector, evalIds);
    g.writeArrayFieldStart("passages");
    for (Map.Entry<MemoryId, Double> e : passages.entrySet()) {
      g.writeStartArray();
      g.writeString(evalIds.getOrDefault(e.getKey(), e.getKey().value()));
      g.writeNumber(e.getValue());
      g.writeEndArray();
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeRaw('\n');
  }

  private static void hits(
      JsonGenerator g, String name, List<StoreHit> hits, Map<MemoryId, String> evalIds)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (StoreHit h : hits) {
      g.writeStartArray();
      g.writeString(evalIds.getOrDefault(h.id(), h.id().value()));
      g.writeNumber(h.score());
      g.writeEndArray();
    }
    g.writeEndArray();
  }
}
