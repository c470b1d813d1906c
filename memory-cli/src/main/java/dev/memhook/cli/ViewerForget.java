package dev.memhook.cli;

import static dev.memhook.cli.Html.link;
import static dev.memhook.cli.Html.text;

import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.cli.ViewerPages.Reply;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Forget in the viewer, in two steps as {@code memhook forget} asks on a terminal: a confirmation
 * page that shows the memory, the older versions that go with it and the observations it was made
 * from, with the choice whether those go too (kept unless chosen, as the terminal's {@code [y/N]}
 * keeps them); then the form's POST, which forgets and says every id removed and how many source
 * observations were kept. The forget leaves the audit record {@code memhook forget} leaves, with
 * the server's user as the actor.
 *
 * <p>Thread-safe: it keeps no state of its own, and the service is thread-safe.
 */
final class ViewerForget {
  /** The reason the audit record gives. */
  static final String REASON = "forgotten in the memhook viewer";

  private final MemoryService memory;
  private final ViewerPages pages;
  private final String actor;

  /**
   * @param actor who forgets, for the audit record: the user the server runs as
   */
  ViewerForget(MemoryService memory, ViewerPages pages, String actor) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.pages = Objects.requireNonNull(pages, "pages");
    this.actor = Objects.requireNonNull(actor, "actor");
  }

  /** The confirmation page: what will go, and a form whose POST carries {@code csrf}. */
  Reply confirm(MemoryId id, String csrf) {
    Optional<Memory> found = memory.get(id);
    if (found.isEmpty()) {
      return Reply.problem(404, "no memory with id " + id + " (unknown or forgotten)");
    }
    Memory m = found.get();
    List<Memory> older = ViewerPages.olderVersions(memory, m);
    List<MemoryId> sources = memory.maintenance().sources(m.id());
    StringBuilder b = new StringBuilder("<h1>Forget this memory?</h1>");
    b.append("<p class=\"target\"><a href=\"")
        .append(link("/view/memory", "id", m.id().value()))
        .append("\">")
        .append(text(m.id().value()))
        .append("</a> ")
        .append(text(m.scope()))
        .append(" <q>")
        .append(text(m.title()))
        .append("</q></p><pre class=\"content\">")
        .append(text(m.content()))
        .append("</pre><p>")
        .append(
            older.isEmpty()
                ? "It has no older versions."
                : "Its "
                    + text(Sizes.count(older.size(), "older version goes", "older versions go"))
                    + " with it.")
        .append("</p>");
    b.append("<form class=\"forget\" method=\"post\" action=\"/view/forget\">")
        .append("<input type=\"hidden\" name=\"csrf\" value=\"")
        .append(text(csrf))
        .append("\"><input type=\"hidden\" name=\"id\" value=\"")
        .append(text(m.id().value()))
        .append("\">");
    if (sources.isEmpty()) {
      b.append("<p>It names no captured observations it was made from.</p>")
          .append("<input type=\"hidden\" name=\"mode\" value=\"with_sources\">");
    } else {
      b.append("<p>It was made from ")
          .append(text(Sizes.count(sources.size(), "observation", "observations")))
          .append(":</p>")
          .append(pages.memoryList("sources", sources))
          .append("<fieldset><legend>Its sources</legend>")
          .append("<label><input type=\"radio\" name=\"mode\" value=\"memory_only\" checked>")
          .append(" Keep them</label> <label><input type=\"radio\" name=\"mode\"")
          .append(" value=\"with_sources\"> Forget them too, so that what they said is not")
          .append(" recalled again</label></fieldset>");
    }
    b.append("<p><button type=\"submit\" class=\"danger\">Forget</button> <a href=\"")
        .append(link("/view/memory", "id", m.id().value()))
        .append("\">Cancel</a></p></form>");
    return Reply.ok("Forget " + m.id().value(), b.toString());
  }

  /**
   * Forgets {@code id} with its older versions and, with {@link ForgetMode#WITH_SOURCES}, its
   * sources; the page lists every id removed and the sources kept.
   */
  Reply forget(MemoryId id, ForgetMode mode) {
    if (memory.get(id).isEmpty()) {
      return Reply.problem(404, "no memory with id " + id + "; nothing was forgotten");
    }
    List<MemoryId> sources = memory.maintenance().sources(id);
    Set<MemoryId> removed = new LinkedHashSet<>();
    for (ForgetRecord r : memory.forget(id, actor, REASON, mode)) {
      removed.add(r.id());
    }
    List<MemoryId> kept = sources.stream().filter(s -> !removed.contains(s)).toList();
    StringBuilder b = new StringBuilder("<h1>Forgotten</h1><p>");
    b.append(text(Sizes.count(removed.size(), "id", "ids")))
        .append(" forgotten by ")
        .append(text(actor))
        .append(
            kept.isEmpty()
                ? ""
                : "; kept "
                    + text(Sizes.count(kept.size(), "observation", "observations"))
                    + " it was made from")
        .append(".</p><ul class=\"forgotten\">");
    for (MemoryId r : removed) {
      b.append("<li>").append(text(r.value())).append("</li>");
    }
    b.append("</ul>");
    if (!kept.isEmpty()) {
      b.append("<p>Kept:</p>").append(pages.memoryList("kept", kept));
    }
    b.append("<p><a href=\"/view/memories\">Back to the memories</a></p>");
    return Reply.ok("Forgotten", b.toString());
  }
}
