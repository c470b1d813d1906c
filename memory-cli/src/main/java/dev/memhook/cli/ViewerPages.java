package dev.memhook.cli;

import static dev.memhook.cli.Html.link;
import static dev.memhook.cli.Html.text;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.api.capture.Session;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The viewer's pages of what the store holds: the captured sessions as a timeline, one session with
 * its observations, the memories by scope and type, and one memory with its versions and sources.
 * Each page is a whole HTML document ({@link #page}) that needs no script and loads one style
 * sheet; every string from the store is escaped ({@link Html#text}). Search and receipts are {@link
 * ViewerRecall}'s, forget {@link ViewerForget}'s.
 *
 * <p>Thread-safe: it keeps no state of its own, and the service is thread-safe.
 */
final class ViewerPages {
  /**
   * The most sessions or memories a listing shows, newest first; the page says how many more there
   * are.
   */
  static final int LISTED = 200;

  /** The most versions or sources a memory's page lists. */
  static final int CHAIN = 50;

  /**
   * A page and its HTTP status.
   *
   * @param status 200, or the status of a refusal
   * @param html the whole document
   */
  record Reply(int status, String html) {
    Reply {
      Objects.requireNonNull(html, "html");
    }

    static Reply ok(String title, String body) {
      return new Reply(200, page(title, body));
    }

    static Reply problem(int status, String message) {
      return new Reply(
          status,
          page(
              "Error " + status,
              "<h1>Error " + status + "</h1><p class=\"problem\">" + text(message) + "</p>"));
    }
  }

  private final MemoryService memory;

  ViewerPages(MemoryService memory) {
    this.memory = Objects.requireNonNull(memory, "memory");
  }

  /** The captured sessions, most recent activity first, each with what it did. */
  Reply sessions() {
    List<Session> sessions = memory.capture().sessions();
    StringBuilder b = new StringBuilder("<h1>Sessions</h1>");
    if (sessions.isEmpty()) {
      b.append("<p>No captured sessions")
          .append(memory.capture().enabled() ? "" : ": this server captures nothing")
          .append(".</p>");
    }
    b.append("<ol class=\"timeline\">");
    for (Session s : sessions.subList(0, Math.min(LISTED, sessions.size()))) {
      b.append("<li class=\"session\"><a href=\"")
          .append(link("/view/session", "id", s.id()))
          .append("\">")
          .append(text(s.id()))
          .append("</a> <span class=\"status\">")
          .append(text(JsonRecords.lower(s.status())))
          .append("</span> ")
          .append(sessionFacts(s))
          .append("</li>");
    }
    b.append("</ol>");
    if (sessions.size() > LISTED) {
      b.append("<p>… and ").append(sessions.size() - LISTED).append(" older ones.</p>");
    }
    return Reply.ok("Sessions", b.toString());
  }

  /** One session: its record, then its stored observations in the order they happened. */
  Reply session(String id) {
    Optional<Session> found = memory.capture().session(id);
    if (found.isEmpty()) {
      return Reply.problem(404, "no captured session " + id);
    }
    Session s = found.get();
    StringBuilder b = new StringBuilder("<h1>Session ").append(text(s.id())).append("</h1>");
    b.append("<p><span class=\"status\">")
        .append(text(JsonRecords.lower(s.status())))
        .append("</span> ")
        .append(sessionFacts(s))
        .append("</p>");
    if (s.summary() != null) {
      b.append("<h2>Summary</h2><pre>").append(text(s.summary())).append("</pre>");
    }
    List<Memory> observations = memory.capture().observations(s.id());
    b.append("<h2>Observations</h2>");
    if (observations.isEmpty()) {
      b.append("<p>None stored.</p>");
    }
    b.append("<ol class=\"observations\">");
    for (Memory m : observations) {
      b.append("<li class=\"observation\"><time>")
          .append(text(m.occurredAt()))
          .append("</time> <a href=\"")
          .append(link("/view/memory", "id", m.id().value()))
          .append("\">")
          .append(text(m.title().isEmpty() ? m.id().value() : m.title()))
          .append("</a> <span class=\"origin\">")
          .append(text(m.origin()))
          .append("</span><pre>")
          .append(text(m.content()))
          .append("</pre></li>");
    }
    b.append("</ol>");
    return Reply.ok("Session " + s.id(), b.toString());
  }

  private static String sessionFacts(Session s) {
    StringBuilder b = new StringBuilder();
    b.append("<span class=\"facts\">scope ")
        .append(text(s.scope()))
        .append(", project ")
        .append(text(s.project()))
        .append(" in ")
        .append(text(s.cwd()))
        .append(", ")
        .append(text(s.startedAt()))
        .append(" to ")
        .append(text(s.endedAt() != null ? s.endedAt() : s.lastEventAt()))
        .append(", ")
        .append(text(Sizes.count(s.observationCount(), "observation", "observations")))
        .append("</span>");
    if (s.firstPrompt() != null) {
      b.append(" <q class=\"prompt\">").append(text(s.firstPrompt())).append("</q>");
    }
    return b.toString();
  }

  /**
   * The latest memories, by scope and type: the scopes with their counts, the types of the chosen
   * scope with theirs, and the newest {@value #LISTED} memories of the choice.
   *
   * @param scope the chosen scope, or null for every scope
   * @param type the chosen type, or null for every type
   */
  Reply memories(Scope scope, MemoryType type) {
    Map<String, Integer> scopes = new TreeMap<>();
    Map<MemoryType, Integer> types = new TreeMap<>();
    List<Memory> chosen = new ArrayList<>();
    memory
        .maintenance()
        .export(
            m -> {
              if (!m.latest()) {
                return;
              }
              scopes.merge(m.scope().value(), 1, Integer::sum);
              if (scope == null || m.scope().equals(scope)) {
                types.merge(m.type(), 1, Integer::sum);
                if (type == null || m.type() == type) {
                  chosen.add(m);
                }
              }
            });
    chosen.sort(Comparator.comparing(Memory::createdAt).reversed());
    StringBuilder b = new StringBuilder("<h1>Memories</h1><nav class=\"scopes\">Scope: ");
    b.append(choice(scope == null, link("/view/memories"), "all"));
    scopes.forEach(
        (s, n) ->
            b.append(
                choice(
                    scope != null && scope.value().equals(s),
                    link("/view/memories", "scope", s),
                    s + " (" + n + ")")));
    b.append("</nav><nav class=\"types\">Type: ");
    String[] scopePair = scope == null ? new String[0] : new String[] {"scope", scope.value()};
    b.append(choice(type == null, link("/view/memories", scopePair), "all"));
    types.forEach(
        (t, n) -> {
          List<String> pairs = new ArrayList<>(List.of(scopePair));
          pairs.addAll(List.of("type", JsonRecords.lower(t)));
          b.append(
              choice(
                  t == type,
                  link("/view/memories", pairs.toArray(String[]::new)),
                  JsonRecords.lower(t) + " (" + n + ")"));
        });
    b.append("</nav>");
    b.append("<table class=\"memories\"><thead><tr><th>Memory</th><th>Type</th><th>Scope</th>")
        .append("<th>Version</th><th>Stored</th></tr></thead><tbody>");
    for (Memory m : chosen.subList(0, Math.min(LISTED, chosen.size()))) {
      b.append("<tr class=\"memory\"><td><a href=\"")
          .append(link("/view/memory", "id", m.id().value()))
          .append("\">")
          .append(text(m.title().isEmpty() ? m.id().value() : m.title()))
          .append("</a></td><td>")
          .append(text(JsonRecords.lower(m.type())))
          .append("</td><td>")
          .append(text(m.scope()))
          .append("</td><td>")
          .append(m.version())
          .append("</td><td>")
          .append(text(m.createdAt()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
    if (chosen.size() > LISTED) {
      b.append("<p>… and ").append(chosen.size() - LISTED).append(" older ones.</p>");
    }
    if (chosen.isEmpty()) {
      b.append("<p>No memories.</p>");
    }
    return Reply.ok("Memories", b.toString());
  }

  private static String choice(boolean chosen, String href, String label) {
    return chosen
        ? "<strong>" + text(label) + "</strong> "
        : "<a href=\"" + href + "\">" + text(label) + "</a> ";
  }

  /**
   * One memory in full, any version: its fields and content, the older versions it supersedes, the
   * observations it was made from and the files it was learnt from, and a link to forget it.
   */
  Reply memory(MemoryId id) {
    Optional<Memory> found = memory.get(id);
    if (found.isEmpty()) {
      return Reply.problem(404, "no memory with id " + id + " (unknown or forgotten)");
    }
    Memory m = found.get();
    StringBuilder b = new StringBuilder("<h1>").append(text(m.title())).append("</h1>");
    b.append("<dl class=\"fields\">");
    field(b, "id", m.id().value());
    field(
        b,
        "version",
        m.version() + (m.latest() ? " (latest)" : " (superseded by a newer version)"));
    field(b, "type", JsonRecords.lower(m.type()));
    field(b, "scope", m.scope().value());
    field(b, "origin", m.origin().toString());
    field(b, "session", m.sourceSession() == null ? "-" : m.sourceSession());
    field(b, "occurred", m.occurredAt().toString());
    field(b, "stored", m.createdAt().toString());
    field(b, "concepts", String.join(", ", m.concepts()));
    field(b, "files", String.join(", ", m.files()));
    field(b, "summary", m.summary());
    b.append("</dl><pre class=\"content\">").append(text(m.content())).append("</pre>");
    if (m.sourceSession() != null && memory.capture().session(m.sourceSession()).isPresent()) {
      b.append("<p><a href=\"")
          .append(link("/view/session", "id", m.sourceSession()))
          .append("\">Its session</a></p>");
    }

    b.append("<h2>Older versions</h2><ol class=\"versions\">");
    List<Memory> older = olderVersions(memory, m);
    for (Memory v : older) {
      b.append("<li class=\"version\"><a href=\"")
          .append(link("/view/memory", "id", v.id().value()))
          .append("\">version ")
          .append(v.version())
          .append("</a> stored ")
          .append(text(v.createdAt()))
          .append("<pre>")
          .append(text(v.content()))
          .append("</pre></li>");
    }
    b.append("</ol>");
    if (older.isEmpty()) {
      b.append("<p>None: this is its first version.</p>");
    }

    b.append("<h2>Sources</h2>");
    List<MemoryId> sources = memory.maintenance().sources(m.id());
    if (sources.isEmpty()) {
      b.append("<p>It names no captured observations it was made from.</p>");
    } else {
      b.append("<p>Made from ")
          .append(text(Sizes.count(sources.size(), "observation", "observations")))
          .append(":</p>")
          .append(memoryList("sources", sources));
    }
    if (!m.sourcePins().isEmpty()) {
      b.append("<p>Learnt from these files:</p><ul class=\"pins\">");
      for (SourcePin p : m.sourcePins()) {
        b.append("<li>")
            .append(text(p.path()))
            .append(" ")
            .append(text(p.digest()))
            .append("</li>");
      }
      b.append("</ul>");
    }
    b.append("<p><a class=\"danger\" href=\"")
        .append(link("/view/forget", "id", m.id().value()))
        .append("\">Forget this memory…</a></p>");
    return Reply.ok(m.title().isEmpty() ? m.id().value() : m.title(), b.toString());
  }

  /** The versions {@code m} supersedes, newest first, at most {@value #CHAIN}. */
  static List<Memory> olderVersions(MemoryService memory, Memory m) {
    List<Memory> out = new ArrayList<>();
    MemoryId next = m.supersedes();
    while (next != null && out.size() < CHAIN) {
      Optional<Memory> v = memory.get(next);
      if (v.isEmpty()) {
        break;
      }
      out.add(v.get());
      next = v.get().supersedes();
    }
    return out;
  }

  /** A list of links to the memories {@code ids} names that are stored, at most {@value #CHAIN}. */
  String memoryList(String cssClass, List<MemoryId> ids) {
    StringBuilder b = new StringBuilder("<ul class=\"").append(cssClass).append("\">");
    for (MemoryId id : ids.subList(0, Math.min(CHAIN, ids.size()))) {
      Optional<Memory> m = memory.get(id);
      b.append("<li><a href=\"")
          .append(link("/view/memory", "id", id.value()))
          .append("\">")
          .append(text(id.value()))
          .append("</a>");
      m.ifPresent(
          x ->
              b.append(" ")
                  .append(text(x.scope()))
                  .append(" <q>")
                  .append(text(x.title().isEmpty() ? x.summary() : x.title()))
                  .append("</q>"));
      b.append("</li>");
    }
    b.append("</ul>");
    if (ids.size() > CHAIN) {
      b.append("<p>… and ").append(ids.size() - CHAIN).append(" more.</p>");
    }
    return b.toString();
  }

  private static void field(StringBuilder b, String name, String value) {
    b.append("<dt>").append(text(name)).append("</dt><dd>").append(text(value)).append("</dd>");
  }

  /**
   * A whole document: the title, the style sheet, the navigation and {@code body}, which the caller
   * built from escaped strings.
   */
  static String page(String title, String body) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + text(title)
        + " · memhook</title><link rel=\"stylesheet\" href=\"/view/viewer.css\"></head><body>"
        + "<header><nav class=\"main\"><a href=\"/view/\">Sessions</a>"
        + " <a href=\"/view/memories\">Memories</a> <a href=\"/view/search\">Search</a>"
        + " <a href=\"/view/receipts\">Receipts</a></nav></header><main>"
        + body
        + "</main></body></html>";
  }
}
