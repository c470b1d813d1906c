package dev.memhook.benchmarks.eval;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallResult;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes what each measured recall of a run returned and why ({@code --trace FILE}), one JSON line
 * per recall, so a figure of the report can be taken apart question by question: which questions a
 * configuration missed, what fusion made of each ({@link RecallResult#fusion()}), which off-topic
 * recalls injected something and which on-topic ones the gate emptied, with the rule's numbers.
 *
 * <p>Two kinds of line, each with the question's {@code id}, {@code conv}, {@code category}, {@code
 * q} (its text) and {@code relevant} eval ids:
 *
 * <ul>
 *   <li>{@code "kind": "ranking"}: an ungated recall of the quality tables ({@code config} {@code
 *       text}, {@code vector} or {@code fused}), with {@code ranked} (the eval ids returned, best
 *       first, at most {@link RetrievalEval#LIMIT}), {@code found} (the 1-based ranks of the
 *       relevant ones among them) and {@code fusion};
 *   <li>{@code "kind": "gate"}: a recall of the gate measurement, {@code recall} {@code own} (an
 *       on-topic question against its own conversation), {@code other} (the same against the next
 *       conversation, {@code against}) or {@code question} (a question no memory answers), with
 *       {@code outcome}, {@code ranked}, {@code fusion} and {@code dropped}: the first {@link
 *       #DROPS_WRITTEN} candidates the gate or another rule left out, in the result's order ({@code
 *       id}, {@code rule}, {@code detail}). The outcomes: {@code empty} or {@code injected} for an
 *       off-topic recall; for an own one, {@code kept evidence}, {@code lost evidence} (the ungated
 *       fused top 10 held a relevant memory and the gated one none: the gate's cost) or {@code no
 *       evidence} (the ungated top 10 held none, so the gate could not cost it).
 * </ul>
 *
 * A trace made with {@link #none()} writes nothing. Not thread-safe: one run writes it, in order.
 * An I/O failure while writing is thrown as an {@link UncheckedIOException}.
 */
final class EvalTrace implements Closeable {

  /** How many dropped candidates a gate line lists: the first of {@link RecallResult#dropped()}. */
  static final int DROPS_WRITTEN = 5;

  /** Null when nothing is written. */
  private final JsonGenerator out;

  private EvalTrace(JsonGenerator out) {
    this.out = out;
  }

  /** A trace that writes nothing. */
  static EvalTrace none() {
    return new EvalTrace(null);
  }

  /**
   * A trace written to {@code file} (replaced if it exists), UTF-8 JSON Lines. Opened before a run
   * stores anything, so that a path it cannot write fails the run at once.
   */
  static EvalTrace to(Path file) throws IOException {
    return new EvalTrace(new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8));
  }

  /** One ungated recall of the quality tables: {@code ranked} are eval ids, best first. */
  void ranking(String config, EvalQuery q, List<String> ranked, RecallResult r) {
    if (out == null) {
      return;
    }
    try {
      start(q, "ranking");
      out.writeStringField("config", config);
      ids("ranked", ranked);
      out.writeArrayFieldStart("found");
      for (int i = 0; i < ranked.size(); i++) {
        if (q.relevant().contains(ranked.get(i))) {
          out.writeNumber(i + 1);
        }
      }
      out.writeEndArray();
      out.writeStringField("fusion", r.fusion());
      end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One recall of the gate measurement.
   *
   * @param recall {@code own}, {@code other} or {@code question}
   * @param against the conversation recalled
   * @param outcome what it counted as (see the class comment)
   * @param ranked the eval ids returned, best first
   * @param evalIds eval ids by memory id, for the dropped candidates (one without is named by its
   *     memory id)
   */
  void gate(
      String recall,
      EvalQuery q,
      String against,
      String outcome,
      List<String> ranked,
      RecallResult r,
      Map<MemoryId, String> evalIds) {
    if (out == null) {
      return;
    }
    try {
      start(q, "gate");
      out.writeStringField("recall", recall);
      out.writeStringField("against", against);
      out.writeStringField("outcome", outcome);
      ids("ranked", ranked);
      out.writeStringField("fusion", r.fusion());
      out.writeArrayFieldStart("dropped");
      for (DroppedCandidate d :
          r.dropped().subList(0, Math.min(DROPS_WRITTEN, r.dropped().size()))) {
        out.writeStartObject();
        out.writeStringField("id", evalIds.getOrDefault(d.id(), d.id().value()));
        out.writeStringField("rule", d.rule().name());
        out.writeStringField("detail", d.detail());
        out.writeEndObject();
      }
      out.writeEndArray();
      end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void start(EvalQuery q, String kind) throws IOException {
    out.writeStartObject();
    out.writeStringField("kind", kind);
    out.writeStringField("id", q.id());
    out.writeStringField("conv", q.conv());
    out.writeStringField("category", q.categoryName());
    out.writeStringField("q", q.text());
    ids("relevant", q.relevant());
  }

  private void end() throws IOException {
    out.writeEndObject();
    out.writeRaw('\n');
  }

  private void ids(String field, List<String> ids) throws IOException {
    out.writeArrayFieldStart(field);
    for (String id : ids) {
      out.writeString(id);
    }
    out.writeEndArray();
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }
}
