package dev.memhook.examples;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.testkit.ModelReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model of the demo: a deterministic stand-in for an LLM that plays the demo's two
 * conversations, for {@code FakeChatService.builder().fallbackModel(...)}.
 *
 * <p>Design note: it decides from the conversation alone, never from ids known in advance, so what
 * it does with memory is what a real model could do with what the hook gave it. It reads the last
 * user message to know which turn it is in, and the messages after it to know how far that turn has
 * gone:
 *
 * <ul>
 *   <li>a stated preference is acknowledged;
 *   <li>the money decision with its fix request runs the agent loop: {@value #EDIT_FILE}, {@value
 *       #RUN_TESTS} (which fails), {@value #EDIT_FILE} again, {@value #RUN_TESTS} (which passes),
 *       then a short report;
 *   <li>any other question looks for a {@code get_memory} summary result in the conversation (the
 *       hook's injection), fetches the one whose summary mentions cents in full with its own {@code
 *       get_memory(id)} call, and answers by quoting what it fetched. Without such a summary it
 *       says it does not know.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class ScriptedModel implements Function<List<ChatMessage>, ModelReply> {

  /** The file-editing tool the demo registers. */
  static final String EDIT_FILE = "edit_file";

  /** The test-running tool the demo registers. */
  static final String RUN_TESTS = "run_tests";

  /** The memory tool the hook registers. */
  static final String GET_MEMORY = "get_memory";

  /** The file the agent edits. */
  static final String MONEY_FILE = "src/main/java/shop/Money.java";

  /** What the answer begins with, so a reader (and the demo's own check) can find it. */
  static final String ANSWER_PREFIX = "Store it as long cents, as you decided: ";

  /** What the model says when no memory reached it. */
  static final String NO_MEMORY_ANSWER =
      "I don't know how you store amounts here; double is common, but tell me your convention.";

  /** One entry of a batched summary result: {@code {"id":"…","summary":"…"}}. */
  private static final Pattern SUMMARY_ENTRY =
      Pattern.compile("\\{\"id\":\"([^\"]+)\",\"summary\":\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The content of a full result. */
  private static final Pattern CONTENT = Pattern.compile("\"content\":\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The most characters of fetched content the answer quotes. */
  private static final int QUOTE_CHARS = 160;

  @Override
  public ModelReply apply(List<ChatMessage> conversation) {
    int lastUser = -1;
    for (int i = conversation.size() - 1; i >= 0; i--) {
      if (conversation.get(i).role() == ChatRole.USER) {
        lastUser = i;
        break;
      }
    }
    if (lastUser < 0) {
      return ModelReply.text("How can I help?");
    }
    String prompt = conversation.get(lastUser).text().toLowerCase(Locale.ROOT);
    List<ChatMessage> turn = conversation.subList(lastUser + 1, conversation.size());
    if (prompt.contains("i prefer")) {
      return ModelReply.text(
          "Noted: constructor injection it is; I'll make dependencies final constructor"
              + " parameters.");
    }
    if (prompt.contains("we decided")) {
      return moneyFix(turn);
    }
    return answerFromMemory(turn);
  }

  /** The agent loop of the money fix: edit, test (fails), edit, test (passes), report. */
  private static ModelReply moneyFix(List<ChatMessage> turn) {
    int edits = results(turn, EDIT_FILE);
    int testRuns = results(turn, RUN_TESTS);
    if (edits == 0) {
      return ModelReply.builder()
          .assistant("I'll switch Money to long cents.")
          .toolCall(
              EDIT_FILE,
              Map.of(
                  "path",
                  MONEY_FILE,
                  "change",
                  "replace 'double amount' with 'long cents'; add(Money) adds cents"))
          .build();
    }
    if (testRuns == 0) {
      return ModelReply.builder().toolCall(RUN_TESTS, Map.of("command", "./gradlew test")).build();
    }
    if (edits == 1) {
      return ModelReply.builder()
          .assistant("addsCents still rounds through double; fixing the parse.")
          .toolCall(
              EDIT_FILE,
              Map.of(
                  "path",
                  MONEY_FILE,
                  "change",
                  "parse \"10.05\" into 1005 cents with BigDecimal.movePointRight(2), no double"))
          .build();
    }
    if (testRuns == 1) {
      return ModelReply.builder().toolCall(RUN_TESTS, Map.of("command", "./gradlew test")).build();
    }
    return ModelReply.text(
        "Done: Money keeps its amount as long cents, never double; all 12 tests pass.");
  }

  /** Fetches the memory about cents that the hook summarised, then answers with it. */
  private static ModelReply answerFromMemory(List<ChatMessage> turn) {
    Optional<String> fetched = Optional.empty();
    List<Summary> summaries = new ArrayList<>();
    for (ChatMessage m : turn) {
      if (m.role() != ChatRole.TOOL_RESULT || !m.toolCall().toolName().equals(GET_MEMORY)) {
        continue;
      }
      if (m.toolCall().arguments().containsKey("id")) {
        fetched = Optional.of(m.text());
      } else {
        summaries.addAll(summaries(m.text()));
      }
    }
    if (fetched.isPresent()) {
      Matcher content = CONTENT.matcher(fetched.get());
      if (content.find()) {
        return ModelReply.text(ANSWER_PREFIX + "\"" + cut(unescape(content.group(1))) + "\"");
      }
      return ModelReply.text(NO_MEMORY_ANSWER);
    }
    Summary best = null;
    int bestScore = 0;
    for (Summary s : summaries) {
      int score = relevance(s.text());
      if (score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    if (best == null) {
      return ModelReply.text(NO_MEMORY_ANSWER);
    }
    return ModelReply.builder()
        .reasoning("A memory is about storing money as cents; read it in full before answering.")
        .toolCall(GET_MEMORY, Map.of("id", best.id()))
        .build();
  }

  /**
   * How relevant a summary is to the question: 0 unless it mentions cents, more if it records a
   * decision. The first of equals wins, so the choice follows the hook's order.
   */
  private static int relevance(String summary) {
    String s = summary.toLowerCase(Locale.ROOT);
    if (!s.contains("cents")) {
      return 0;
    }
    return s.contains("decided") ? 2 : 1;
  }

  /**
   * One entry of a batched {@code get_memory} summary result.
   *
   * @param id the memory's id
   * @param text its summary
   */
  record Summary(String id, String text) {}

  /** The entries of a batched {@code get_memory} summary result, in order; empty for any other. */
  static List<Summary> summaries(String result) {
    List<Summary> out = new ArrayList<>();
    Matcher entry = SUMMARY_ENTRY.matcher(result);
    while (entry.find()) {
      out.add(new Summary(entry.group(1), unescape(entry.group(2))));
    }
    return out;
  }

  /** How many results of {@code toolName} calls made by the model this turn holds. */
  private static int results(List<ChatMessage> turn, String toolName) {
    List<String> modelCalls = new ArrayList<>();
    int n = 0;
    for (ChatMessage m : turn) {
      ToolCall call = m.toolCall();
      if (call == null || !call.toolName().equals(toolName)) {
        continue;
      }
      if (m.role() == ChatRole.TOOL_CALL && m.origin() == MessageOrigin.MODEL) {
        modelCalls.add(call.id());
      } else if (m.role() == ChatRole.TOOL_RESULT && modelCalls.contains(call.id())) {
        n++;
      }
    }
    return n;
  }

  private static String cut(String text) {
    return text.length() <= QUOTE_CHARS ? text : text.substring(0, QUOTE_CHARS - 1) + "…";
  }

  /** Undoes JSON string escapes (the ones Jackson writes). */
  static String unescape(String json) {
    StringBuilder out = new StringBuilder(json.length());
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c != '\\' || i + 1 == json.length()) {
        out.append(c);
        continue;
      }
      char e = json.charAt(++i);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          if (i + 4 < json.length()) {
            out.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
            i += 4;
          }
        }
        default -> out.append(e);
      }
    }
    return out.toString();
  }
}
