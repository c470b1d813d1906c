package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Observation;
import dev.memhook.core.internal.compress.ObservationText;
import dev.memhook.core.internal.observe.FieldText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rules that turn an accepted event into an observation and its stored memory, in one place:
 * how its content entered (origin), what its content is, what context it keeps, and which
 * attributes record where it came from. Times: the memory's {@code occurredAt} is the event's time,
 * its {@code createdAt} the time {@code observe} accepted it.
 *
 * <p>A conversation turn (a prompt or the agent's answer) is stored as what was said, so a captured
 * conversation is as findable as one a host stores turn by turn; a tool event is stored as its
 * rendered text (a header line and its labelled parts). Stateless and thread-safe.
 */
final class ObservationDrafts {

  /** Attribute: the event's hook type, by its wire name. */
  static final String HOOK_TYPE = "memhook.hookType";

  /** Attribute: the observation kind compression found. */
  static final String KIND = "memhook.kind";

  /** Attribute: {@code "true"} when a part of the event was cut to the raw-observation cap. */
  static final String TRUNCATED = "memhook.truncated";

  private ObservationDrafts() {}

  /** How the event's content entered memory. */
  static Origin origin(LifecycleEvent e) {
    EventData d = e.data();
    return switch (e.type()) {
      case PROMPT_SUBMIT -> d.speaker() != null ? Origin.user(d.speaker()) : Origin.user();
      case AGENT_RESPONSE -> new Origin(Origin.Kind.AGENT, d.speaker());
      case PRE_TOOL_USE, POST_TOOL_USE, TOOL_FAILURE -> Origin.tool(d.toolName());
      case SUBAGENT_START, SUBAGENT_STOP -> new Origin(Origin.Kind.AGENT, d.agentName());
      default -> Origin.agent();
    };
  }

  /**
   * The raw observation of an accepted event. Its content is cut with {@link
   * MemoryDraft#CUT_MARKER} to the longest content a memory may have, and then counts as truncated:
   * {@link EventScrub} cuts each big part of an event to the raw-observation cap, but a tool event
   * renders several parts, which together may be longer, and an accepted event must always be
   * storable.
   */
  static Observation observation(AcceptedEvent a) {
    LifecycleEvent e = a.event();
    String whole = content(e);
    String content = FieldText.cutEnd(whole, MemoryDraft.MAX_CONTENT);
    return new Observation(
        a.observationId(),
        e.type(),
        a.scope(),
        e.sessionId(),
        e.project() == null ? "" : e.project(),
        e.cwd() == null ? "" : e.cwd(),
        origin(e),
        e.data().toolName(),
        e.timestamp(),
        a.capturedAt(),
        e.data(),
        content,
        a.truncated() || content.length() < whole.length());
  }

  /**
   * What the stored observation's content is, before the cut: what was said, or else the rendered
   * event. A turn that said nothing but private regions is rendered too ({@code "PromptSubmit\n
   * prompt: [private]"}): a memory's content may not be only private regions, and the event was
   * accepted, so it must be storable.
   */
  private static String content(LifecycleEvent e) {
    EventData d = e.data();
    String said =
        switch (e.type()) {
          case PROMPT_SUBMIT -> d.prompt();
          case AGENT_RESPONSE -> d.message();
          default -> null;
        };
    if (said != null && !FieldText.isOnlyPrivate(said)) {
      return said;
    }
    String text = ObservationText.render(e.type(), d.toolName(), d);
    if (e.type() == LifecycleEventType.SESSION_START || text.isBlank()) {
      String where = e.project() == null ? "" : " in " + e.project();
      String dir = e.cwd() == null ? "" : " (" + e.cwd() + ")";
      return text.isBlank() ? e.type().wireName() + where + dir : text + where + dir;
    }
    return text;
  }

  /** The event as the context of the session's next turn: "who: what", cut to the context limit. */
  static String turn(Observation o) {
    return turn(o.origin(), o.text());
  }

  /**
   * The context a turn said by {@code origin} gives the next one: the same for an observation and
   * for the memory stored from it, whose content is the observation's text.
   */
  static String turn(Origin origin, String text) {
    String who =
        switch (origin.kind()) {
          case USER -> origin.name() == null ? "user" : origin.name();
          case TOOL -> "tool " + origin.name();
          default -> origin.name() == null ? "agent" : origin.name();
        };
    return FieldText.cutEnd(who + ": " + text, MemoryDraft.MAX_CONTEXT);
  }

  /** Whether the observation is a conversation turn stored as what was said. */
  static boolean isTurn(Observation o) {
    return (o.type() == LifecycleEventType.PROMPT_SUBMIT
            || o.type() == LifecycleEventType.AGENT_RESPONSE)
        && !o.text().startsWith(o.type().wireName());
  }

  /**
   * The memory draft of an observation in its compressed form, with its session's context.
   *
   * <p>A conversation turn is drafted as a host would remember it: what was said, who said it,
   * when, in which session, after which turn, and the file paths it names (for the graph signal);
   * the service derives its title and summary from the content as for any memory. A compressed
   * title, summary or fact list would only repeat the turn's words, and text repeated in a memory's
   * indexed fields ranks it above memories that say a thing once: on the dev conversations that
   * cost recall and let off-topic questions through the relevance gate. Its hook type is plain from
   * its origin. A tool or session event is drafted from its compressed form: title, narrative and
   * facts as the summary, concepts and files for the graph signal, and its hook type and kind as
   * attributes.
   */
  static MemoryDraft draft(Observation o, CompressedObservation c, String context) {
    MemoryDraft.Builder draft =
        MemoryDraft.builder(o.scope(), o.text())
            .type(MemoryType.OBSERVATION)
            .context(context)
            .sourceSession(o.sessionId())
            .origin(o.origin())
            .importance(c.importance())
            .occurredAt(o.occurredAt());
    if (isTurn(o)) {
      // the paths a turn names link it to the file edits and commands about them (graph signal)
      return draft.files(c.files()).build();
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put(HOOK_TYPE, o.type().wireName());
    attributes.put(KIND, c.kind().name());
    if (o.truncated()) {
      attributes.put(TRUNCATED, "true");
    }
    return draft
        .title(FieldText.cutEnd(c.title(), MemoryDraft.MAX_TITLE))
        .summary(summary(c))
        .concepts(c.concepts())
        .files(c.files())
        .attributes(attributes)
        .build();
  }

  /** The narrative, then the facts it does not already say, within the summary limit. */
  private static String summary(CompressedObservation c) {
    StringBuilder sb = new StringBuilder(c.narrative().strip());
    for (String fact : c.facts()) {
      if (!sb.toString().contains(fact)) {
        if (sb.length() > 0) {
          sb.append(' ');
        }
        sb.append(fact.strip());
      }
    }
    return FieldText.cutEnd(sb.toString(), MemoryDraft.MAX_SUMMARY);
  }
}
