package dev.memhook.benchmarks.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Lifecycle events as a coding agent's hook script posts them, generated from a seed: 50 % {@code
 * PostToolUse Bash} (a command as {@code {"command": …}} and 300 to 2,000 characters of compiler,
 * test, listing, grep or git output), 20 % {@code PostToolUse Edit} or {@code Read} (a file path,
 * and old and new strings or the file's lines), 15 % {@code PromptSubmit} (1 to 3 sentences), 10 %
 * {@code AgentResponse} (2 to 6 sentences), 5 % {@code ToolFailure}. A session (a random UUID, its
 * own project and cwd) lasts 30 to 70 events; timestamps increase by 1 to 20 seconds, with a gap
 * between sessions; no event carries an event id.
 *
 * <p>Every event is distinct: event {@code i} names a package {@link #uniqueWord(int)} that no
 * other event of the stream names (it appears in a path or a sentence of the event's main text), so
 * no event is a duplicate of another and recall can find each by that word. The same seed gives the
 * same events.
 *
 * <p>This class keeps the stream (sessions, timestamps, the mix of kinds, unique words) and the
 * JSON form; what an event says comes from {@link BashToolData}, {@link FileToolData} and {@link
 * ConversationTexts}, over a {@link CodeVocabulary}. All of them draw from one {@link Random}, in
 * the order the events need them.
 *
 * <p>Not thread-safe; a generator makes one stream. Public for the soak, which posts the same
 * stream.
 */
public final class AgentEvents {

  /** When the first session starts. */
  static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String[] PROJECTS = {
    "billing-service", "orbit-web", "ledger-core", "atlas-gateway", "pulse-metrics", "nimbus-cli"
  };
  private static final char[] CONSONANTS = "bdfgklmnprstvz".toCharArray();
  private static final char[] VOWELS = "aeiou".toCharArray();

  private final Random random;
  private final BashToolData bash;
  private final FileToolData files;
  private final ConversationTexts conversation;
  private int index;
  private int sessionLeft;
  private String sessionId;
  private String project;
  private String cwd;
  private Instant time = START;

  /** The stream of {@code seed}. */
  public AgentEvents(long seed) {
    this.random = new Random(seed);
    CodeVocabulary words = new CodeVocabulary(random);
    this.bash = new BashToolData(random, words);
    this.files = new FileToolData(random, words);
    this.conversation = new ConversationTexts(random, words);
  }

  /** The next {@code n} events of the stream. */
  List<LifecycleEvent> next(int n) {
    List<LifecycleEvent> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(next());
    }
    return out;
  }

  /** The next event of the stream. */
  public LifecycleEvent next() {
    if (sessionLeft == 0) {
      sessionLeft = 30 + random.nextInt(41);
      sessionId = new UUID(random.nextLong(), random.nextLong()).toString();
      project = PROJECTS[random.nextInt(PROJECTS.length)];
      cwd = "/home/dev/src/" + project;
      time = time.plusSeconds(1_800 + random.nextInt(3_600));
    }
    sessionLeft--;
    time = time.plusSeconds(1 + random.nextInt(20));
    String unique = uniqueWord(index++);
    int kind = random.nextInt(100);
    EventData data;
    LifecycleEventType type;
    if (kind < 50) {
      type = LifecycleEventType.POST_TOOL_USE;
      data = bash.completed(unique);
    } else if (kind < 70) {
      type = LifecycleEventType.POST_TOOL_USE;
      data = random.nextBoolean() ? files.edit(unique, cwd) : files.read(unique, cwd);
    } else if (kind < 85) {
      type = LifecycleEventType.PROMPT_SUBMIT;
      data = EventData.prompt(conversation.prompt(unique));
    } else if (kind < 95) {
      type = LifecycleEventType.AGENT_RESPONSE;
      data = EventData.message(conversation.answer(unique));
    } else {
      type = LifecycleEventType.TOOL_FAILURE;
      data = bash.failed(unique);
    }
    return LifecycleEvent.builder(type, sessionId)
        .project(project)
        .cwd(cwd)
        .timestamp(time)
        .data(data)
        .build();
  }

  /**
   * The word only event {@code i} of a stream names: letters only (four consonant-vowel syllables
   * and a final {@code x}, so no stemmer shortens it), distinct for every {@code i} below 70⁴.
   */
  public static String uniqueWord(int i) {
    StringBuilder sb = new StringBuilder(9);
    int n = i;
    for (int s = 0; s < 4; s++) {
      int syllable = n % (CONSONANTS.length * VOWELS.length);
      n /= CONSONANTS.length * VOWELS.length;
      sb.append(CONSONANTS[syllable / VOWELS.length]).append(VOWELS[syllable % VOWELS.length]);
    }
    return sb.append('x').toString();
  }

  /** An event as the JSON a hook script posts, with the tool input as a JSON value. */
  public static String toJson(LifecycleEvent e) {
    ObjectNode root = JSON.createObjectNode();
    root.put("hookType", e.type().wireName());
    root.put("sessionId", e.sessionId());
    root.put("project", e.project());
    root.put("cwd", e.cwd());
    root.put("timestamp", e.timestamp().toString());
    ObjectNode data = root.putObject("data");
    EventData d = e.data();
    putIfPresent(data, "toolName", d.toolName());
    if (d.input() != null) {
      try {
        data.set("input", JSON.readTree(d.input()));
      } catch (JsonProcessingException notJson) {
        data.put("input", d.input());
      }
    }
    putIfPresent(data, "output", d.output());
    putIfPresent(data, "prompt", d.prompt());
    putIfPresent(data, "error", d.error());
    putIfPresent(data, "message", d.message());
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e1) {
      throw new UncheckedIOException(e1);
    }
  }

  private static void putIfPresent(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  /** {@code fields} as a JSON object, the form of a tool's input. */
  static String toolInput(Map<String, String> fields) {
    try {
      return JSON.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
