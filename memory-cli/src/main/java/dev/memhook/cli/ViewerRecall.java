package dev.memhook.cli;

import static dev.memhook.cli.Html.link;
import static dev.memhook.cli.Html.text;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.cli.ViewerPages.Reply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The viewer's pages of recall: search, with the explanation {@code memhook search --explain}
 * prints ({@link SearchExplanation}), and the recent injection receipts of the hooks this service
 * runs. Every string from the store or the request is escaped ({@link Html#text}).
 *
 * <p>Thread-safe: it keeps no state of its own, and the service is thread-safe.
 */
final class ViewerRecall {
  /** The most receipts the receipts page shows, newest first. */
  static final int RECEIPTS = 50;

  private final MemoryService memory;

  ViewerRecall(MemoryService memory) {
    this.memory = Objects.requireNonNull(memory, "memory");
  }

  /**
   * The search form and, for a non-blank {@code q}, what a recall in {@code scope} returns, best
   * first, with its explanation. Recall runs with the service's recall options, which are the
   * defaults {@code memhook search} uses without options.
   */
  Reply search(String q, Scope scope, int limit) {
    StringBuilder b = new StringBuilder("<h1>Search</h1>");
    b.append("<form class=\"search\" method=\"get\" action=\"/view/search\">")
        .append("<label>Query <input type=\"search\" name=\"q\" value=\"")
        .append(text(q))
        .append("\"></label> <label>Scope <input type=\"text\" name=\"scope\" value=\"")
        .append(text(scope.value()))
        .append("\"></label> <label>Limit <input type=\"number\" name=\"limit\" min=\"1\" max=\"")
        .append(RecallQuery.MAX_LIMIT)
        .append("\" value=\"")
        .append(limit)
        .append("\"></label> <button type=\"submit\">Search</button></form>");
    if (q.isBlank()) {
      return Reply.ok("Search", b.toString());
    }
    RecallResult result = memory.recall(new RecallQuery(scope, q, limit));
    b.append("<ol class=\"results\">");
    for (RecalledMemory m : result.memories()) {
      b.append("<li class=\"result\"><a href=\"")
          .append(link("/view/memory", "id", m.id().value()))
          .append("\">")
          .append(text(m.id().value()))
          .append("</a> <strong>")
          .append(text(m.memory().title()))
          .append("</strong> <span class=\"score\">")
          .append(String.format(Locale.ROOT, "%.4f", m.score()))
          .append("</span><p>")
          .append(text(m.memory().summary()))
          .append("</p></li>");
    }
    b.append("</ol>");
    if (result.memories().isEmpty()) {
      b.append("<p>nothing relevant enough</p>");
    }
    b.append("<h2>Explanation</h2><pre class=\"explanation\">")
        .append(text(SearchExplanation.of(result)))
        .append("</pre>");
    return Reply.ok("Search: " + q, b.toString());
  }

  /**
   * The recent injection receipts of this service's hooks, newest first: each attempt's phases,
   * what it injected, and every candidate with the decision and its reason.
   */
  Reply receipts() {
    List<InjectionReceipt> all = new ArrayList<>(memory.trace().recentReceipts());
    Collections.reverse(all);
    StringBuilder b = new StringBuilder("<h1>Injection receipts</h1>");
    if (all.isEmpty()) {
      b.append(
          "<p>No receipts yet: a receipt is made by each injection attempt of a hook this"
              + " process runs on a chat service.</p>");
    }
    for (InjectionReceipt r : all.subList(0, Math.min(RECEIPTS, all.size()))) {
      b.append("<section class=\"receipt\"><h2>")
          .append(text(JsonRecords.lower(r.phase())))
          .append(" at ")
          .append(text(r.at()))
          .append("</h2><p class=\"facts\">receipt ")
          .append(text(r.id()))
          .append(", hook ")
          .append(text(r.hookId()))
          .append(", scopes ")
          .append(text(r.scopes().stream().map(Scope::value).toList()))
          .append("</p><ul class=\"phases\">");
      phase(b, "recall", r.recall());
      phase(b, "gate", r.gate());
      phase(b, "injection", r.injection());
      phase(b, "delivery", r.delivery());
      b.append("</ul><p>Injected: ");
      if (r.injectedIds().isEmpty()) {
        b.append("nothing");
      }
      for (MemoryId id : r.injectedIds()) {
        b.append("<a class=\"injected\" href=\"")
            .append(link("/view/memory", "id", id.value()))
            .append("\">")
            .append(text(id.value()))
            .append("</a> ");
      }
      b.append("</p><table class=\"candidates\"><thead><tr><th>Candidate</th><th>Decision</th>")
          .append("<th>Score</th><th>Why</th></tr></thead><tbody>");
      for (ReceiptCandidate c : r.candidates()) {
        b.append("<tr><td><a href=\"")
            .append(link("/view/memory", "id", c.id().value()))
            .append("\">")
            .append(text(c.id().value()))
            .append("</a></td><td>")
            .append(text(JsonRecords.lower(c.decision())))
            .append("</td><td>")
            .append(Double.isNaN(c.score()) ? "-" : String.format(Locale.ROOT, "%.4f", c.score()))
            .append("</td><td>")
            .append(text(c.detail()))
            .append("</td></tr>");
      }
      b.append("</tbody></table></section>");
    }
    return Reply.ok("Receipts", b.toString());
  }

  private static void phase(StringBuilder b, String name, PhaseStatus p) {
    b.append("<li>")
        .append(name)
        .append(": <span class=\"status\">")
        .append(text(JsonRecords.lower(p.status())))
        .append("</span> ")
        .append(text(p.detail()))
        .append("</li>");
  }
}
