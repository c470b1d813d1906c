package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.LifecycleEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps an agent's answer sets down for next time: a passage it introduces as the way to do a
 * task from now on ("Workflow for the v2 boards:", "Workflow from now on:", "For next time: run …",
 * "Befehl zum Merken: …", "La prochaine fois : …") and that holds a command in code. An agent that
 * worked out how to flash a board or apply a migration often says so in its last answer, with the
 * commands that worked, while the runs themselves show only what was tried (a failed flash, a retry
 * with another runner); the recap is the agent's own word on what to do again, and a later session
 * asks for the task ("flash main onto the v2 board"), not for the commands.
 *
 * <p>A recap starts at the line or sentence holding its lead and runs to the end of the answer's
 * paragraph and the lists or code blocks right after it, at most {@value #MAX_CHARS} characters;
 * code blocks are kept as their lines, each a step. A lead with no command in code after it (a plan
 * in prose, "from now on I'll keep the tests green") is no recap.
 *
 * <p>Stateless and thread-safe.
 */
final class AgentRecaps {

  private AgentRecaps() {}

  /** The most characters of one recap. */
  static final int MAX_CHARS = 500;

  /** The most recaps one session yields. */
  static final int MAX_RECAPS = 2;

  /**
   * One recap.
   *
   * @param lead the line or sentence that introduces it, without its colon, for the title
   * @param content the recap: its lead and its steps, folded to one line
   * @param source the answer it was read from
   */
  record Recap(String lead, String content, ObservationView source) {}

  /**
   * {@code recap}'s content with the task it was worked out for, {@code prompt}'s words, when there
   * was one: a later session asks for the task again in its own words.
   */
  static String withTask(Recap recap, ObservationView prompt) {
    if (prompt == null || prompt.said().isBlank()) {
      return recap.content();
    }
    return TextCuts.asSentence(recap.content()) + TaskNote.workedOutFor(prompt.said());
  }

  /**
   * A lead that introduces steps for next time, where a line or a sentence starts (after a list
   * mark or emphasis): "Workflow" ("Workflow for the v2 boards", "Workflow from now on"), "From now
   * on", "Going forward", "(For) next time", "For future reference", "To remember", "To do this
   * again"; German "Zum Merken", "Befehl zum Merken", "Nächstes Mal", "Künftig", "Ab jetzt"; French
   * "La prochaine fois", "À l'avenir", "Désormais", "Pour mémoire", "À retenir"; Spanish "La
   * próxima vez", "De ahora en adelante", "Para recordar"; Portuguese "Da próxima vez", "Daqui pra
   * frente", "De agora em diante", "Para lembrar"; Japanese "次回", "今後".
   */
  private static final Pattern LEAD =
      Pattern.compile(
          "(?imu)(?:^|(?<=[.!?]\\s))[-*•>\\s]*(?:\\*\\*|__)?"
              + "(workflow\\b[^\\n:]{0,80}|from now on|going forward|(?:for )?next time"
              + "|for future reference|to remember|to do (?:this|it) again"
              + "|(?:befehl |befehle )?zum merken|n[äa]chstes mal|k[üu]nftig|ab jetzt"
              + "|la prochaine fois|[àa] l'avenir|d[ée]sormais|pour m[ée]moire|[àa] retenir"
              + "|la pr[óo]xima vez|de ahora en adelante|para recordar"
              + "|da pr[óo]xima vez|daqui pra frente|de agora em diante|para lembrar"
              + "|次回|今後)");

  /** Code in an answer: a fenced block, or a span in backticks. */
  private static final Pattern CODE = Pattern.compile("```[^\\n]*\\n([\\s\\S]*?)```|`([^`\\n]+)`");

  /**
   * A command in code: a program and at least one argument ("west flash -r pyocd"), or a script run
   * by its path ("./scripts/migrate.sh staging").
   */
  private static final Pattern COMMAND =
      Pattern.compile("(?m)^\\s*(?:\\$\\s+)?(?:\\./|[\\w.-]+/)*[\\w.-]+(?:\\s+\\S+)+");

  /** The recaps of the session's answers, in order, at most {@value #MAX_RECAPS}. */
  static List<Recap> of(List<ObservationView> views) {
    List<Recap> out = new ArrayList<>();
    for (ObservationView v : views) {
      if (out.size() == MAX_RECAPS) {
        break;
      }
      if (v.type() == LifecycleEventType.AGENT_RESPONSE) {
        Recap r = recap(v);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  /** The first recap of the answer {@code v}, or null. */
  static Recap recap(ObservationView v) {
    String said = v.said();
    Matcher lead = LEAD.matcher(said);
    while (lead.find()) {
      int start = lead.start(1);
      String passage = passage(said, start);
      if (!hasCommand(passage)) {
        continue;
      }
      String steps = folded(passage);
      if (steps.isEmpty()) {
        continue;
      }
      String title = TextCuts.firstSentence(passage, 200);
      int colon = title.indexOf(':');
      title = (colon > 0 ? title.substring(0, colon) : title).replace("**", "").strip();
      return new Recap(title, TextCuts.atWord(steps, MAX_CHARS), v);
    }
    return null;
  }

  /**
   * The passage of {@code said} from {@code start}: to the end of its paragraph, and then the lists
   * and code blocks that follow it without a paragraph of prose between.
   */
  private static String passage(String said, int start) {
    String[] lines = said.substring(start).split("\n", -1);
    StringBuilder out = new StringBuilder();
    boolean code = false;
    boolean blank = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String t = line.strip();
      if (TextCuts.codeFence(t)) {
        code = !code;
        out.append(line).append('\n');
        blank = false;
        continue;
      }
      if (!code && t.isEmpty()) {
        blank = true;
        continue;
      }
      boolean listed = TextCuts.LIST_MARK.matcher(t).lookingAt();
      if (!code && blank && i > 0 && !listed) {
        break; // a paragraph of prose after the recap's own
      }
      out.append(line).append('\n');
      blank = false;
      if (out.length() > 4 * MAX_CHARS) {
        break;
      }
    }
    return out.toString();
  }

  private static boolean hasCommand(String passage) {
    Matcher code = CODE.matcher(passage);
    while (code.find()) {
      String text = code.group(1) != null ? code.group(1) : code.group(2);
      if (COMMAND.matcher(text).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code passage} on one line: each line of a code block a step ending in ";", backticks, fences
   * and emphasis left out, white space folded.
   */
  private static String folded(String passage) {
    StringBuilder out = new StringBuilder();
    boolean code = false;
    for (String line : passage.split("\n")) {
      String t = line.strip();
      if (TextCuts.codeFence(t)) {
        code = !code;
        continue;
      }
      if (t.isEmpty()) {
        continue;
      }
      String part = t.replace("`", "").replace("**", "");
      if (code) {
        part = part + ";";
      } else {
        Matcher mark = TextCuts.LIST_MARK.matcher(part);
        if (mark.lookingAt()) {
          part = TextCuts.asSentence(part.substring(mark.end())); // items read as sentences
        }
      }
      out.append(out.length() == 0 ? "" : " ").append(part);
    }
    return TextCuts.flat(out.toString(), out.length());
  }
}
