package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project's rules as the agent read them: after a read of a contributing, style or architecture
 * guide, an agents' instructions file, or the configuration of a linter, a formatter or a
 * commit-message check, what the agent's answer tells of its rules, or, when it followed a guide
 * written in prose without speaking of its rules, the guide's own headings and items; with the task
 * that needed them.
 *
 * <p>Stateless and thread-safe.
 */
final class ProjectRules {

  private ProjectRules() {}

  /**
   * The rules told of one file.
   *
   * @param content "Project rules in FILE: RULES (Read for the task "…".)", where a guide whose
   *     rules the answer told has its own rules after them ("… As the file writes them: …")
   * @param rules the rules alone
   * @param sources the task's prompt (when the session had one), the read and the answer
   */
  record Told(String content, String rules, List<ObservationView> sources) {
    Told {
      sources = List.copyOf(sources);
    }
  }

  /**
   * The rules the agent told after reading a file that sets how work is done ({@link #RULES_FILE}),
   * in session order: the agent's answer in the same turn that names the file or speaks of rules
   * ("CONTRIBUTING.md is strict about Flyway naming. Versioned migrations are …", "the naming
   * rules: … private members with a trailing underscore"), from its first such sentence, at most
   * {@value #MAX_RULES} characters and without a lead-in ("Before writing it:"). A later task of
   * the same kind is worded like the one that made the agent read the file ("add a notes column to
   * stops", later "the depots table needs a timezone column"), not like the rules, so the content
   * keeps both: the rules first, since a memory's summary, which an injection shows, is its opening
   * sentences, then the task. After a guide in prose, an answer that tells no rule, or only names
   * the guide before a recap of the work ("Done, following CONTRIBUTING.md: - branch …"), lets the
   * guide speak for itself ({@link #rulesWritten}), its sections listed first; after an answer that
   * told a guide's rules, the guide's own follow them ({@link #AS_WRITTEN}), since the task that
   * made the agent read it needed one section and a later task may need another. One a file a
   * session.
   */
  static List<Told> of(List<ObservationView> views) {
    List<Told> out = new ArrayList<>();
    ObservationView prompt = null;
    Map<String, ObservationView> reads = new LinkedHashMap<>();
    Set<String> done = new LinkedHashSet<>();
    for (ObservationView v : views) {
      if (v.type() == LifecycleEventType.PROMPT_SUBMIT) {
        prompt = v;
        reads.clear();
        continue;
      }
      if (v.kind() == ObservationKind.FILE_READ) {
        String name = rulesFileRead(v);
        if (name != null && done.add(name.toLowerCase(Locale.ROOT))) {
          reads.put(name, v);
        }
        continue;
      }
      if (v.type() != LifecycleEventType.AGENT_RESPONSE || reads.isEmpty()) {
        continue;
      }
      for (var entry : reads.entrySet()) {
        String name = entry.getKey();
        String rules = rulesTold(v.said(), name);
        String sections = "";
        String guide = "";
        Written written =
            GUIDE.matcher(name).matches() ? rulesWritten(entry.getValue()) : Written.NONE;
        if (!speaksOfRules(rules)) {
          // a guide in prose whose rules the answer does not speak of ("CONTRIBUTING.md is strict
          // about …"), but at most names before a recap of the work ("Done, following
          // CONTRIBUTING.md: …"): the guide's own lines say them, after the list of its sections,
          // since an injection shows a memory's opening and a later section may be cut
          if (!written.rules().isEmpty()) {
            rules = written.rules();
            if (written.sections().size() >= 2) {
              sections = " (" + String.join("; ", written.sections()) + ")";
            }
          }
        } else if (!written.rules().isEmpty()) {
          // the answer told the rules its task needed (the bucket's name); a later task needs
          // another section (the modules' names), which the guide's own lines say after them and
          // the excerpt beside the summary shows
          guide = " " + AS_WRITTEN + written.rules();
        }
        if (rules.isEmpty()) {
          continue;
        }
        List<ObservationView> sources = new ArrayList<>();
        String task = "";
        if (prompt != null) {
          sources.add(prompt);
          task = TaskNote.readFor(prompt.said());
        }
        sources.add(entry.getValue());
        sources.add(v);
        out.add(
            new Told(
                "Project rules in " + name + sections + ": " + rules + guide + task,
                rules,
                sources));
      }
      reads.clear();
    }
    return out;
  }

  /**
   * The name of the rules file {@code read} read ({@link #RULES_FILE}), or null. A read is of one
   * file: a listing that names several ({@code Glob *.md}, {@code ls docs/}) reads none of them,
   * and the read of the guide that follows it is the one that says its rules. A dotfile without an
   * extension that the compressor's token scan does not know ({@code .stylelintrc}) is no file to
   * it, so the name is also taken from the read's title ("Read /w/.stylelintrc").
   */
  private static String rulesFileRead(ObservationView read) {
    List<String> paths = new ArrayList<>();
    if (read.memory().files().size() == 1) {
      paths.add(read.memory().files().get(0));
    }
    String title = read.memory().title();
    if (title.startsWith("Read ") && title.indexOf(' ', 5) < 0) {
      paths.add(title.substring(5));
    }
    for (String path : paths) {
      String name = path.substring(path.lastIndexOf('/') + 1);
      if (RULES_FILE.matcher(name).matches()) {
        return name;
      }
    }
    return null;
  }

  /** Whether the first sentence of {@code told} speaks of rules ({@link #SPEAKS_OF_RULES}). */
  private static boolean speaksOfRules(String told) {
    List<String> sentences = TextCuts.sentences(told, Spoken.WINDOW);
    return !sentences.isEmpty() && SPEAKS_OF_RULES.matcher(sentences.get(0)).find();
  }

  /** The most characters of the rules an answer tells that a convention keeps. */
  static final int MAX_RULES = 600;

  /**
   * The most characters of a guide's own rules that a convention keeps ({@link #rulesWritten}). An
   * injection shows a memory's summary, its opening, and beside it the excerpt holding the words
   * the message asked about (core.internal.inject.excerpt), so a later section of the guide (its
   * Kconfig names after its commit rules) reaches the agent when a task asks for it; kept to {@link
   * #MAX_RULES}, a guide lost every section past its first one or two.
   */
  static final int MAX_WRITTEN_RULES = 4_000;

  /**
   * The rules {@code said} tells of {@code file}: its sentences from the first that names the file
   * or speaks of a rule ({@link #SPEAKS_OF_RULES}), whole sentences up to {@value #MAX_RULES}
   * characters; empty if none does.
   */
  private static String rulesTold(String said, String file) {
    List<String> sentences = TextCuts.sentences(said, Spoken.WINDOW);
    String lowerFile = file.toLowerCase(Locale.ROOT);
    StringBuilder rules = new StringBuilder();
    for (String sentence : sentences) {
      String s = sentence.strip();
      if (rules.length() == 0
          && !s.toLowerCase(Locale.ROOT).contains(lowerFile)
          && !SPEAKS_OF_RULES.matcher(s).find()) {
        continue;
      }
      if (rules.length() > 0 && rules.length() + s.length() + 1 > MAX_RULES) {
        break;
      }
      rules.append(rules.length() == 0 ? "" : " ").append(TextCuts.asSentence(s));
    }
    if (rules.length() == 0) {
      return "";
    }
    Matcher lead = RULES_LEAD.matcher(rules);
    String told = lead.lookingAt() ? rules.substring(lead.end()) : rules.toString();
    return TextCuts.atWord(Character.toUpperCase(told.charAt(0)) + told.substring(1), MAX_RULES);
  }

  /**
   * The rules a guide written in prose lays down, as the read shows them: its section headings as
   * labels ("Naming:") and its list items and paragraphs as sentences, without its title, code
   * blocks, tables or emphasis marks, whole items up to {@value #MAX_WRITTEN_RULES} characters, and
   * no heading left at the end with nothing under it; with every section heading of the guide. An
   * agent often follows such a guide without retelling it (it reads the dbt style guide, then names
   * the new models as it says): what it read is then what a later task of the kind needs.
   */
  static Written rulesWritten(ObservationView read) {
    String output =
        ProjectSettings.printed(ObservationText.part(read.memory().content(), "output"));
    StringBuilder rules = new StringBuilder();
    List<String> sections = new ArrayList<>();
    int told = 0; // where the last item or paragraph ends: headings after it label nothing
    boolean code = false;
    boolean full = false;
    boolean stopAdded = false; // whether the last part's full stop is ours, not the guide's
    boolean titled = false; // whether the document's title has been read
    boolean preambleItems = false; // whether the lines before the first section hold list items
    List<String> lines = ProjectSettings.lines(output);
    for (int i = 0; i < lines.size(); i++) {
      String raw = lines.get(i);
      String line = raw.strip();
      if (TextCuts.codeFence(line)) {
        code = !code;
        continue;
      }
      if (code || line.isEmpty() || line.startsWith("|") || UNDERLINE.matcher(line).matches()) {
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      boolean hashes = line.length() <= MAX_HEADING_LINE && heading.matches();
      String underlined = underlinedHeading(lines, i);
      String part;
      boolean label;
      boolean wraps = false; // this line goes on with the item before it
      if (hashes || underlined != null) {
        if (hashes ? heading.group(1).length() == 1 : !titled && told == 0 && sections.isEmpty()) {
          titled = true;
          continue; // the document's title
        }
        if (sections.isEmpty() && !preambleItems) {
          // what comes before the first section welcomes the reader ("Thanks for working on
          // routekeeper", "Read this before adding models"); the rules are in the sections, and
          // an injection shows a memory's opening
          rules.setLength(0);
          told = 0;
          full = false;
          stopAdded = false;
        }
        String section =
            TextCuts.atWord(plain(hashes ? heading.group(2) : underlined), MAX_SECTION);
        if (sections.size() < MAX_SECTIONS) {
          sections.add(section);
        }
        part = section + ":";
        label = true;
      } else {
        Matcher mark = TextCuts.LIST_MARK.matcher(line);
        boolean item = mark.lookingAt() && mark.end() < line.length();
        preambleItems |= item && sections.isEmpty();
        String text = plain(item ? line.substring(mark.end()) : line);
        boolean continues =
            !item && rules.length() > 0 && !endsSentence(rules) && raw.startsWith(" ");
        label = text.endsWith(":") && !continues;
        part = continues || label ? text : TextCuts.asSentence(text);
        if (!full && continues && stopAdded) {
          rules.setLength(rules.length() - 1); // an item wrapped onto the next line goes on
        }
        stopAdded = !continues && !label && !part.equals(text);
        wraps = continues;
      }
      if (full || rules.length() + part.length() + 1 > MAX_WRITTEN_RULES) {
        full = true; // the rest is read for its section headings only
        continue;
      }
      if (!wraps && rules.length() > 0 && ".!?:".indexOf(rules.charAt(rules.length() - 1)) < 0) {
        rules.append('.'); // a wrapped item before this part ended without a stop
      }
      rules.append(rules.length() == 0 ? "" : " ").append(part);
      if (!label) {
        told = rules.length();
      }
    }
    rules.setLength(told);
    return new Written(sections, rules.toString());
  }

  /**
   * The heading {@code lines.get(i)} is when the next line underlines it, as reStructuredText and
   * Markdown's setext headings do ("Commit messages" over "---------------"), or null: a short line
   * that is no list item, with a line of one repeated mark at least as long under it.
   */
  private static String underlinedHeading(List<String> lines, int i) {
    if (i + 1 >= lines.size()) {
      return null;
    }
    String line = lines.get(i).strip();
    String under = lines.get(i + 1).strip();
    if (line.length() > MAX_HEADING_LINE
        || TextCuts.LIST_MARK.matcher(line).lookingAt()
        || under.length() < line.length()
        || !UNDERLINE.matcher(under).matches()
        || under.chars().distinct().count() != 1) {
      return null;
    }
    return line;
  }

  /**
   * What a guide's own lines lay down.
   *
   * @param sections its section headings in order, at most {@value #MAX_SECTIONS}, each at most
   *     {@value #MAX_SECTION} characters; the ones past what {@code rules} holds too
   * @param rules its headings as labels and its items and paragraphs as sentences, or ""
   */
  record Written(List<String> sections, String rules) {
    /** A file that is no guide: nothing written to keep. */
    static final Written NONE = new Written(List.of(), "");

    Written {
      sections = List.copyOf(sections);
    }
  }

  /** What introduces a guide's own rules after the rules an answer told of it. */
  static final String AS_WRITTEN = "As the file writes them: ";

  /** The longest line read as a heading: a heading is short, and a longer line is a paragraph. */
  private static final int MAX_HEADING_LINE = 200;

  /** The most section headings a guide's rules name. */
  static final int MAX_SECTIONS = 8;

  /** The most characters of one section heading. */
  static final int MAX_SECTION = 60;

  private static boolean endsSentence(StringBuilder text) {
    char last = text.charAt(text.length() - 1);
    return last == ':' || last == '!' || last == '?';
  }

  /** {@code text} without markdown's strong emphasis ("__" is also part of names: stg_a__b). */
  private static String plain(String text) {
    return EMPHASIS.matcher(text).replaceAll("").strip();
  }

  private static final Pattern HEADING = Pattern.compile("(#{1,6})\\s+(.+?)\\s*#*");

  /** A line that only underlines a heading (reStructuredText, setext) or rules a page. */
  private static final Pattern UNDERLINE = Pattern.compile("[=\\-~^*#_]{3,}");

  private static final Pattern EMPHASIS = Pattern.compile("\\*\\*");

  /**
   * A lead-in before the rules an answer tells: "Before writing it:", "Noting the migration rules
   * here before I generate anything:", at most twelve words and nothing quoted.
   */
  private static final Pattern RULES_LEAD =
      Pattern.compile("(?:[^:.`\\n]+?\\s){0,11}[^:.`\\s]+:\\s+(?=\\S)");

  /**
   * A file that sets how work is done in a project: a contributing or style guide, an agents'
   * instructions file, a guide to releasing or deploying it ({@code RELEASING.md}), or the
   * configuration of a linter, a formatter or a commit-message check.
   */
  private static final Pattern RULES_FILE =
      Pattern.compile(
          "(?i)(?:contributing|conventions?|coding[-_]?(?:style|standards|guidelines)"
              + "|style[-_]?guide|styleguide|agents|claude|hacking)(?:\\.(?:md|rst|txt|adoc))?"
              + "|(?:style|architecture|guidelines|standards|rules|releasing|deploying)"
              + "\\.(?:md|rst|txt|adoc)"
              + "|[\\w.]{1,40}[-_](?:style|guidelines|conventions|standards)\\.(?:md|rst|txt|adoc)"
              + "|\\.clang-(?:tidy|format)|\\.editorconfig"
              + "|\\.?commitlint(?:rc)?(?:\\.config)?(?:\\.(?:c?js|mjs|ts|json|ya?ml))?"
              + "|\\.eslintrc(?:\\.\\w+)?|eslint\\.config\\.\\w+|\\.prettierrc(?:\\.\\w+)?"
              + "|\\.stylelintrc(?:\\.\\w+)?|\\.?(?:ruff|rustfmt|clippy)\\.toml|\\.rubocop\\.ya?ml"
              + "|\\.golangci\\.ya?ml|detekt\\.ya?ml|checkstyle\\.xml|\\.pylintrc"
              + "|\\.swiftlint\\.ya?ml");

  /**
   * The rules files written in prose, whose own lines can stand for the rules ({@link
   * #rulesWritten}); a linter's configuration says nothing unless the answer tells it.
   */
  private static final Pattern GUIDE =
      Pattern.compile("(?i)[^.]+(?:\\.(?:md|markdown|rst|txt|adoc))?");

  /**
   * Words of an answer that tells rules: "rules", "convention", "must", "strict about"; and the
   * words for rules and conventions of the languages an agent answers its user in most often
   * (German "Regeln", Spanish "reglas", French "règles", Portuguese "regras", Italian "regole").
   */
  private static final Pattern SPEAKS_OF_RULES =
      Pattern.compile(
          "(?iu)\\b(?:rules?|conventions?|naming|must|mandatory|required|strict about|not allowed"
              + "|never|always|has to|have to"
              + "|regeln|konventionen?|reglas|convenciones|règles|regras|convenções|regole"
              + "|convenzioni)\\b");
}
