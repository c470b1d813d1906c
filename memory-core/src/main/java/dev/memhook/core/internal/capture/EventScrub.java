package dev.memhook.core.internal.capture;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.core.internal.observe.FieldText;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Objects;

/**
 * Makes a validated event storable: every string field sanitized, every big text part cut to {@code
 * maxRawChars} with a visible {@link MemoryDraft#CUT_MARKER}.
 *
 * <p><b>Design.</b> Short fields (the ids, {@code project}, {@code cwd}, {@code toolName}, {@code
 * agentName}, {@code speaker}) are cleaned as {@link FieldText#clean} cleans a memory's fields
 * (lone surrogates to U+FFFD, sanitized, stripped); one that sanitizing empties becomes {@code
 * [redacted]}, one that sanitizing lengthens past its limit is cut. The event keeps the sanitized
 * {@code sessionId}, so everything derived from it (the duplicate key, the session) uses the same
 * one.
 *
 * <p>Big parts ({@code input}, {@code output}, {@code prompt}, {@code error}, {@code message}) can
 * be megabytes, and sanitizing costs time in proportion to the text. So a part longer than {@code
 * maxRawChars + }{@value #MARGIN} is first cut to that length, then sanitized, then cut to {@code
 * maxRawChars}. The margin is what keeps the first cut safe: a credential that starts before {@code
 * maxRawChars} and is shorter than the margin (every shape the sanitizer knows is, a 4096-bit PEM
 * key included) lies whole inside what is sanitized, so it is recognised, not cut in half into a
 * prefix no rule matches. What the first cut did split lies at the very end of what was sanitized,
 * unredacted and shorter than the margin; since sanitizing may shrink the text before it (a
 * redacted key block becomes a short marker) and pull it into the kept window, the last {@value
 * #MARGIN} characters of a pre-cut part are always dropped.
 *
 * <p>An {@code input} or {@code output} that is JSON text (an object or array) is read as a tree:
 * every key and every string leaf is sanitized on its own, decoded, so a PEM key whose newlines are
 * {@code \n} escapes in the JSON is seen with real newlines; the tree is written back compactly,
 * and the whole text is sanitized once more, which catches what spans leaves ({@code "password":
 * "hunter2"}). A pre-cut JSON text is read up to where it was cut. Text that is not JSON is
 * sanitized as text.
 *
 * <p>Deterministic: the same event gives the same result. Errors: when the sanitizer fails closed
 * (a host rule spent its step budget), {@link #scrub} throws {@link IllegalArgumentException}
 * naming the field; the event must then not be stored. Immutable and thread-safe.
 */
public final class EventScrub {

  /** How far beyond {@code maxRawChars} a big part is sanitized: see the design note. */
  public static final int MARGIN = 8_192;

  /**
   * How often a big part is sanitized at most: again with a longer first cut when redactions shrank
   * the first attempt below {@code maxRawChars}.
   */
  private static final int MAX_ATTEMPTS = 4;

  private static final String MARKER = MemoryDraft.CUT_MARKER;
  private static final String REDACTED = "[redacted]";

  /** A scrubbed event, and whether any part of it was cut. */
  public record Result(LifecycleEvent event, boolean truncated) {
    /** Requires the event. */
    public Result {
      Objects.requireNonNull(event, "event");
    }
  }

  private final Sanitizer sanitizer;
  private final int maxRawChars;

  /**
   * A scrubber that sanitizes with {@code sanitizer} and keeps big parts up to {@code maxRawChars}.
   *
   * @throws IllegalArgumentException if {@code maxRawChars} is outside the range {@link
   *     CaptureOptions} allows
   */
  public EventScrub(Sanitizer sanitizer, int maxRawChars) {
    this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
    checkArgument(
        maxRawChars >= CaptureOptions.MIN_RAW_CHARS && maxRawChars <= MemoryDraft.MAX_CONTENT,
        "maxRawChars must be in [%s, %s], got %s",
        CaptureOptions.MIN_RAW_CHARS,
        MemoryDraft.MAX_CONTENT,
        maxRawChars);
    this.maxRawChars = maxRawChars;
  }

  /**
   * The sanitized, cut form of {@code event}, which {@link EventValidation} has accepted.
   *
   * @throws IllegalArgumentException if the sanitizer fails closed on a field; the message names it
   */
  public Result scrub(LifecycleEvent event) {
    EventData d = event.data();
    boolean[] cut = new boolean[1];
    EventData data =
        new EventData(
            shortField("data.toolName", d.toolName(), MemoryDraft.MAX_ORIGIN_NAME),
            bigField("data.input", d.input(), true, cut),
            bigField("data.output", d.output(), true, cut),
            bigField("data.prompt", d.prompt(), false, cut),
            bigField("data.error", d.error(), false, cut),
            shortField("data.agentName", d.agentName(), MemoryDraft.MAX_ORIGIN_NAME),
            bigField("data.message", d.message(), false, cut),
            shortField("data.speaker", d.speaker(), MemoryDraft.MAX_ORIGIN_NAME));
    LifecycleEvent clean =
        new LifecycleEvent(
            event.type(),
            shortField("sessionId", event.sessionId(), MemoryDraft.MAX_SESSION),
            shortField("project", event.project(), MemoryDraft.MAX_ORIGIN_NAME),
            shortField("cwd", event.cwd(), MemoryDraft.MAX_FILE),
            event.timestamp(),
            shortField("eventId", event.eventId(), EventValidation.MAX_EVENT_ID),
            data);
    return new Result(clean, cut[0]);
  }

  private String shortField(String path, String value, int max) {
    if (value == null) {
      return null;
    }
    String clean = sanitize(path, FieldText.wellFormed(value)).strip();
    return FieldText.cutEnd(clean.isEmpty() ? REDACTED : clean, max);
  }

  private String bigField(String path, String value, boolean mayBeJson, boolean[] cut) {
    if (value == null) {
      return null;
    }
    int limit = maxRawChars + MARGIN;
    if (value.length() <= limit) {
      String clean = clean(path, FieldText.wellFormed(value), mayBeJson, false);
      String out = FieldText.cutEnd(clean, maxRawChars);
      cut[0] |= out.length() != clean.length();
      return out;
    }
    String kept = "";
    for (int attempt = 0; attempt < MAX_ATTEMPTS && limit < value.length(); attempt++) {
      String prefix = FieldText.wellFormed(value.substring(0, safeEnd(value, limit)));
      String clean = clean(path, prefix, mayBeJson, true);
      kept = clean.substring(0, safeEnd(clean, Math.max(0, clean.length() - MARGIN)));
      if (kept.length() >= maxRawChars) {
        break;
      }
      limit += maxRawChars - kept.length();
    }
    if (limit >= value.length() && kept.length() < maxRawChars) {
      // the redactions shrank the text so much that all of it fits: no first cut is needed
      String clean = clean(path, FieldText.wellFormed(value), mayBeJson, false);
      String out = FieldText.cutEnd(clean, maxRawChars);
      cut[0] |= out.length() != clean.length();
      return out;
    }
    cut[0] = true;
    int end = safeEnd(kept, Math.min(kept.length(), maxRawChars - MARKER.length()));
    return kept.substring(0, end) + MARKER;
  }

  /** {@code text} sanitized (as JSON when it is JSON) and stripped. */
  private String clean(String path, String text, boolean mayBeJson, boolean preCut) {
    String clean = mayBeJson && startsLikeJson(text) ? scrubJson(path, text, preCut) : null;
    return (clean == null ? sanitize(path, text) : clean).strip();
  }

  /**
   * {@code text} with each key and string leaf sanitized, written compactly and sanitized whole; or
   * null when it is not one JSON value (then it is sanitized as text). A pre-cut text that is JSON
   * up to its cut keeps everything before the cut, the string it ends in included.
   */
  private String scrubJson(String path, String text, boolean preCut) {
    StringWriter out = new StringWriter(text.length() + 16);
    try (JsonGenerator g = CaptureJson.FACTORY.createGenerator(out)) {
      try (JsonParser p = CaptureJson.FACTORY.createParser(text)) {
        p.nextToken();
        CaptureJson.copy(
            p, g, key -> leaf(path, key), leaf -> leaf(path, leaf), preCut ? text : null);
        if (p.nextToken() != null) {
          return null;
        }
      } catch (JsonEOFException e) {
        if (!preCut) {
          return null;
        }
      } catch (JsonProcessingException e) {
        return null;
      }
    } catch (IOException e) {
      // a StringWriter does no I/O; any other IOException is a parse failure: not JSON
      return null;
    }
    return sanitize(path, out.toString());
  }

  /**
   * A key or string leaf, sanitized on its own when JSON writes it escaped (a newline, a quote, a
   * backslash, a control or surrogate character): only then can the whole-text pass see it
   * differently from how it reads, a PEM key's newlines as {@code \n} for one. A leaf written as it
   * is lies verbatim in the whole text, which is sanitized anyway; sanitizing it twice would double
   * the cost of every event for nothing.
   */
  private String leaf(String path, String text) {
    return writtenAsIs(text) ? text : sanitize(path, FieldText.wellFormed(text));
  }

  private static boolean writtenAsIs(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private String sanitize(String path, String text) {
    try {
      return sanitizer.sanitize(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          path + " could not be sanitized, so the event was not accepted: " + e.getMessage(), e);
    }
  }

  private static boolean startsLikeJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }

  /** {@code end}, or one less when it would split a surrogate pair. */
  private static int safeEnd(String text, int end) {
    return end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))
        ? end - 1
        : end;
  }
}
