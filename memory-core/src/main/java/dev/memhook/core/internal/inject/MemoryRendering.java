package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.JsonText.JSON;
import static dev.memhook.core.internal.inject.JsonText.abbreviate;
import static dev.memhook.core.internal.inject.JsonText.fits;
import static dev.memhook.core.internal.inject.JsonText.quotedLength;
import static dev.memhook.core.internal.inject.JsonText.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.core.internal.inject.excerpt.Excerpts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Memories as {@code get_memory} returns them, each within a size budget in characters of JSON. The
 * rules themselves are stated in {@link GetMemoryTool}'s Javadoc; this class keeps them.
 *
 * <p>Every method returns a rendering whose {@link Rendered#length()} is the exact length of its
 * JSON and at most the budget it was given. Stateless and thread-safe; null is never accepted.
 */
final class MemoryRendering {

  /** The most one title takes, in JSON characters; a title is at most 200 characters. */
  private static final int TITLE_CAP = 400;

  /** The most one summary takes in a full result, in JSON characters. */
  private static final int SUMMARY_CAP = 1_200;

  /** The most a session id, origin, concept, file or attribute key takes. */
  private static final int NAME_CAP = 200;

  /** The most one attribute value takes. */
  private static final int VALUE_CAP = 500;

  /** The least room a cut excerpt is shown in; with less, it is left out. */
  static final int MIN_EXCERPT_CHARS = 40;

  private MemoryRendering() {}

  /** A JSON value and the exact length of its rendering. */
  record Rendered(ObjectNode node, int length) {
    static Rendered of(ObjectNode node) {
      return new Rendered(node, render(node).length());
    }
  }

  /**
   * One memory from character {@code offset} of its content, at most {@code cap} characters. From
   * offset 0 it carries the metadata (no more than half of {@code cap}); from a later offset only
   * the page. Content that does not fit is cut and the result says so with {@code truncated},
   * {@code contentLength}, {@code nextOffset} and a {@code hint}. If not even a page of content
   * fits, the result is {@link #overBudget}.
   *
   * @param offset in {@code [0, content length]}
   * @param withScope whether the memory names its scope (a hook reading several does)
   */
  static Rendered full(Memory m, int offset, int cap, boolean withScope) {
    String id = m.id().value();
    String content = m.content();
    ObjectNode o = JSON.createObjectNode();
    o.put("id", id);
    if (withScope && offset == 0) {
      o.put("scope", m.scope().value());
    }
    List<String> cut = new ArrayList<>();
    int meta = cap / 2;
    if (offset == 0) {
      o.put("type", m.type().name().toLowerCase(Locale.ROOT));
      putText(o, "title", m.title(), Math.min(TITLE_CAP, meta / 4), cut);
      putText(o, "summary", m.summary(), Math.min(SUMMARY_CAP, meta / 4), cut);
    } else {
      o.put("offset", offset);
    }
    o.put("content", "");
    if (offset == 0) {
      putMetadata(o, m, meta - render(o).length(), cut);
      if (!cut.isEmpty()) {
        cut.forEach(o.putArray("cut")::add);
      }
    }
    int room = cap - render(o).length() - (offset > 0 ? contentLengthCost(content) : 0);
    // the walk stops at the room, so a page costs its own length, not the rest of the content
    if (room >= 0 && JsonText.cutPoint(content, offset, room) == content.length()) {
      o.put("content", content.substring(offset));
      if (offset > 0) {
        o.put("contentLength", content.length());
      }
      return checked(o, m.id(), cap);
    }
    ObjectNode probe = o.deepCopy();
    putPaging(probe, id, content.length(), content.length());
    int pageRoom = cap - render(probe).length();
    int end = pageRoom < 0 ? offset : JsonText.cutPoint(content, offset, pageRoom);
    if (end == offset) {
      return overBudget(m.id(), cap);
    }
    o.put("content", content.substring(offset, end));
    putPaging(o, id, content.length(), end);
    return checked(o, m.id(), cap);
  }

  /**
   * {@code {"id", "summary"}}, at most {@code cap} characters: a summary that does not fit ends
   * with {@link JsonText#ELLIPSIS} and the entry carries {@code "truncated": true}. With {@code
   * withScope}, {@code {"id", "scope", "summary"}}.
   */
  static Rendered summary(Memory m, int cap, boolean withScope) {
    return summary(m, "", cap, withScope);
  }

  /**
   * As {@link #summary(Memory, int, boolean)}, followed by {@code "excerpt"} when {@code excerpt}
   * ({@link Excerpts}) is not empty. The excerpt gives way first: cut to the room the whole summary
   * leaves (ending with {@link JsonText#ELLIPSIS}), left out when less than {@value
   * #MIN_EXCERPT_CHARS} characters are left, and always left out of an entry whose summary is cut.
   */
  static Rendered summary(Memory m, String excerpt, int cap, boolean withScope) {
    ObjectNode o = JSON.createObjectNode().put("id", m.id().value());
    if (withScope) {
      o.put("scope", m.scope().value());
    }
    o.put("summary", m.summary());
    if (!excerpt.isEmpty()) {
      ObjectNode withExcerpt = o.deepCopy().put("excerpt", excerpt);
      Rendered whole = Rendered.of(withExcerpt);
      if (whole.length() <= cap) {
        return whole;
      }
      int room = cap - render(o).length() - ",\"excerpt\":\"\"".length();
      if (room >= MIN_EXCERPT_CHARS) {
        return checked(o.put("excerpt", abbreviate(excerpt, room)), m.id(), cap);
      }
    }
    Rendered whole = Rendered.of(o);
    if (whole.length() <= cap) {
      return whole;
    }
    o.put("summary", "").put("truncated", true);
    int room = cap - render(o).length();
    if (room < 0) {
      return overBudget(m.id(), cap);
    }
    o.put("summary", abbreviate(m.summary(), room));
    return checked(o, m.id(), cap);
  }

  /** {@code {"id", "error": "not_found"}}: unknown, forgotten and other-scope ids alike. */
  static Rendered notFound(MemoryId id) {
    return Rendered.of(JSON.createObjectNode().put("id", id.value()).put("error", "not_found"));
  }

  /**
   * {@code {"id", "error": "over_budget", "hint"}} for a memory with no room left in a batch; the
   * hint names the single call that reads it, and is left out when even it does not fit.
   */
  static Rendered overBudget(MemoryId id, int cap) {
    ObjectNode o = JSON.createObjectNode().put("id", id.value()).put("error", "over_budget");
    Rendered bare = Rendered.of(o.deepCopy());
    o.put("hint", "no room left in this result; call get_memory with {\"id\": \"" + id + "\"}");
    Rendered hinted = Rendered.of(o);
    return hinted.length() <= cap ? hinted : bare;
  }

  /**
   * One array of entries within {@code budget}: entries that fit whole stay whole; the room left is
   * shared equally among the rest (water-filling, shortest first), each rendered at its share.
   *
   * @param entries each renders its entry at a given cap, its natural size at {@code
   *     Integer.MAX_VALUE}
   */
  static ArrayNode batch(List<IntFunction<Rendered>> entries, int budget) {
    int n = entries.size();
    List<Rendered> natural = new ArrayList<>(n);
    for (IntFunction<Rendered> e : entries) {
      natural.add(e.apply(Integer.MAX_VALUE));
    }
    List<Integer> order = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingInt(i -> natural.get(i).length()));
    Rendered[] chosen = new Rendered[n];
    long remaining = (long) budget - 2 - Math.max(0, n - 1);
    int left = n;
    for (int i : order) {
      int share = (int) Math.max(0, remaining / left);
      Rendered r = natural.get(i).length() <= share ? natural.get(i) : entries.get(i).apply(share);
      chosen[i] = r;
      remaining -= r.length();
      left--;
    }
    ArrayNode out = JSON.createArrayNode();
    for (Rendered r : chosen) {
      out.add(r.node());
    }
    return out;
  }

  private static int contentLengthCost(String content) {
    return ",\"contentLength\":".length() + String.valueOf(content.length()).length();
  }

  private static void putPaging(ObjectNode o, String id, int total, int next) {
    o.put("truncated", true);
    o.put("contentLength", total);
    o.put("nextOffset", next);
    o.put(
        "hint",
        "call get_memory with {\"id\": \"" + id + "\", \"offset\": " + next + "} for the rest");
  }

  private static void putText(ObjectNode o, String key, String value, int cap, List<String> cut) {
    if (!fits(value, cap)) {
      cut.add(key);
    }
    o.put(key, abbreviate(value, cap));
  }

  /**
   * Concepts, files, session, origin, times ({@code occurredAt}: when it happened, the event time
   * of a captured observation; {@code createdAt}: when this version was stored, the capture time of
   * an observation), version and attributes. Each string is capped; list entries and attributes are
   * added while their total stays within {@code room}. What was shortened or left out is named in
   * {@code cut}.
   */
  private static void putMetadata(ObjectNode o, Memory m, int room, List<String> cut) {
    int[] left = {room};
    putList(o, "concepts", m.concepts(), left, cut);
    putList(o, "files", m.files(), left, cut);
    if (m.sourceSession() != null) {
      putText(o, "session", m.sourceSession(), NAME_CAP, cut);
    }
    putText(o, "origin", m.origin().toString(), NAME_CAP, cut);
    o.put("occurredAt", m.occurredAt().toString());
    o.put("createdAt", m.createdAt().toString());
    o.put("version", m.version());
    o.put("latest", m.latest());
    if (m.supersedes() != null) {
      o.put("supersedes", m.supersedes().value());
    }
    if (m.attributes().isEmpty()) {
      return;
    }
    ObjectNode attrs = o.putObject("attributes");
    boolean shortened = false;
    for (Map.Entry<String, String> e : m.attributes().entrySet()) {
      String key = abbreviate(e.getKey(), NAME_CAP);
      String value = abbreviate(e.getValue(), VALUE_CAP);
      int cost = quotedLength(key) + 1 + quotedLength(value) + 1;
      if (cost > left[0] || attrs.has(key)) {
        shortened = true;
        continue;
      }
      shortened |= !key.equals(e.getKey()) || !value.equals(e.getValue());
      attrs.put(key, value);
      left[0] -= cost;
    }
    if (shortened) {
      cut.add("attributes");
    }
  }

  private static void putList(
      ObjectNode o, String key, List<String> values, int[] left, List<String> cut) {
    ArrayNode array = o.putArray(key);
    boolean shortened = false;
    for (String v : values) {
      String shown = abbreviate(v, NAME_CAP);
      int cost = quotedLength(shown) + 1;
      if (cost > left[0]) {
        shortened = true;
        continue;
      }
      shortened |= !shown.equals(v);
      array.add(shown);
      left[0] -= cost;
    }
    if (shortened) {
      cut.add(key);
    }
  }

  /** {@code o} if it renders within {@code cap}, else the over-budget entry. */
  private static Rendered checked(ObjectNode o, MemoryId id, int cap) {
    Rendered r = Rendered.of(o);
    return r.length() <= cap ? r : overBudget(id, cap);
  }
}
