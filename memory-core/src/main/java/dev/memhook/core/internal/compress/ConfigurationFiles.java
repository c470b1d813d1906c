package dev.memhook.core.internal.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which files configure a project, and the settings their text holds, by format: {@code key =
 * value} and {@code key: value} lines nested by indentation, braces or a section (properties, INI,
 * TOML, YAML, Gradle builds, environment templates, JavaScript configs), JSON documents, Elixir's
 * {@code config} calls and Python settings modules. Each setting is {key in words, key, value},
 * with up to two enclosing keys; values that call something, values the sanitizer replaced and the
 * values of keys that name a secret are left out. {@link ProjectSettings} decides what an
 * observation read and restates it; this class only reads a configuration file's text.
 *
 * <p>Stateless and thread-safe.
 */
final class ConfigurationFiles {

  private ConfigurationFiles() {}

  /**
   * The settings of {@code lines}, the text of the configuration file named {@code name} (in lower
   * case), at most {@value #MAX_SETTINGS}: a JSON document without a manifest's dependencies (which
   * {@link ProjectSettings#dependencies} restates apart), an Elixir config, or lines of keys and
   * values (a Python module's as assignments, and without the comments YAML, TOML and Python allow
   * after a value).
   */
  static List<String[]> settings(String name, List<String> lines) {
    if (name.endsWith(".json")) {
      return jsonSettings(String.join("\n", lines), MANIFESTS.getOrDefault(name, List.of()));
    }
    if (name.endsWith(".exs")) {
      return elixirSettings(lines);
    }
    return lineSettings(
        name.endsWith(".py")
            ? pythonAssignments(lines)
            : HASH_COMMENTS.matcher(name).find() ? withoutTrailingComments(lines) : lines);
  }

  /** The most settings one file yields. */
  static final int MAX_SETTINGS = 24;

  /** The longest value kept, in characters; a longer one is code or data, not a setting. */
  static final int MAX_VALUE = 120;

  /** Words in a JSON or YAML file's name that say it configures something. */
  private static final List<String> CONFIG_WORDS =
      List.of(
          "config",
          "settings",
          "package",
          "compose",
          "application",
          "manifest",
          "chart",
          "values",
          "pubspec",
          "composer",
          "project",
          "renovate",
          "workflow",
          "global"); // .NET's global.json: the SDK version a repository builds with

  /** How an environment file that is a template, not the live one, ends its name. */
  private static final List<String> TEMPLATES =
      List.of(".example", ".sample", ".template", ".dist", ".defaults");

  /**
   * Words of a key that names a secret: its value is left out even when the sanitizer let it
   * through, since a restated setting may be offered with every session's first answer.
   */
  private static final Set<String> SECRET_WORDS =
      Set.of(
          "secret",
          "password",
          "passwd",
          "pwd",
          "pass",
          "token",
          "key",
          "apikey",
          "credential",
          "credentials",
          "auth",
          "private",
          "salt",
          "signature",
          "cert",
          "dsn");

  private static final Pattern SECTION = Pattern.compile("^\\[\\[?\\s*([^\\[\\]]{1,80}?)\\s*]]?$");

  /** An Elixir config call: {@code config :app, Module,} with what follows on its line. */
  private static final Pattern ELIXIR_CONFIG =
      Pattern.compile("^config\\s+:(\\w{1,80})(?:\\s*,\\s*([A-Z][\\w.]{0,120}))?\\s*,\\s*(.*)$");

  /** One setting of an Elixir keyword list: {@code adapter: Swoosh.Adapters.Postmark,}. */
  private static final Pattern ELIXIR_PAIR = Pattern.compile("^([a-z_]\\w{0,80}):\\s+(.+)$");

  /** A variable of Elixir: lower-case, unlike its atoms, modules, strings and literals. */
  private static final Pattern ELIXIR_VARIABLE =
      Pattern.compile("^(?!true$|false$|nil$)[a-z_]\\w{0,80}$");

  /** An Elixir config block for one environment: {@code if config_env() == :prod do}. */
  private static final Pattern ELIXIR_ENV =
      Pattern.compile("^if\\s+config_env\\(\\)\\s*==\\s*:(\\w{1,20})\\s+do$");

  /**
   * {@code key = value}, {@code key: value}, {@code "key": value}, or {@code key "value"}; a dotted
   * key may quote a part of it ({@code quarkus.cache.caffeine."latest-rate".maximum-size}).
   */
  private static final Pattern PAIR =
      Pattern.compile(
          "^(?:export\\s+)?([\"']?)([A-Za-z_$@][\\w$.\\-@]{0,80}(?:\\.\"[\\w.\\-]{1,40}\"[\\w$.\\-@]{0,80})*)"
              + "\\1(?:\\s*[:=]|\\s+(?=[\"']))\\s*(.*)$");

  /**
   * A quoted key of any characters but quotes ({@code '/products/**': { swr: 600 }}, {@code
   * "Content-Type": …}), with {@link #PAIR}'s groups: 1 the quote, 2 the key, 3 the value.
   */
  private static final Pattern QUOTED_PAIR =
      Pattern.compile("^([\"'])([^\"'\\n]{1,80})\\1\\s*[:=]\\s*(.*)$");

  /** {@code name {} or {@code name = {}: a block with no value on its own line. */
  private static final Pattern BLOCK = Pattern.compile("^([A-Za-z_][\\w.\\-]{0,80})\\s*\\{$");

  private static final Pattern CAMEL = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");

  static boolean configuration(String path, String name) {
    if (name.contains("lock")) {
      return false; // package-lock.json, yarn.lock, Cargo.lock: resolved graphs, not settings
    }
    if (name.equals(".env")
        || name.startsWith(".env.")
        || name.endsWith(".env")
        || name.contains(".env.")) {
      // a live environment file holds the deployment's secrets by convention; its template holds
      // the names and harmless defaults, and is what a project commits
      return TEMPLATES.stream().anyMatch(name::endsWith);
    }
    if (name.endsWith(".gradle.kts")
        || name.equals(".editorconfig")
        || name.equals(".npmrc")
        || name.equals(".yarnrc")) {
      return true;
    }
    int dot = name.lastIndexOf('.');
    String extension = dot < 0 ? "" : name.substring(dot + 1);
    String stem = dot < 0 ? name : name.substring(0, dot);
    return switch (extension) {
      case "properties", "ini", "cfg", "conf", "toml", "gradle" -> true;
      case "json", "yaml", "yml" ->
          name.startsWith(".")
              || path.contains("/.github/")
              || CONFIG_WORDS.stream().anyMatch(stem::contains)
              || TOOL_CONFIGS.contains(name)
              || CONFIG_DIRECTORY.matcher(path).find() && !path.contains("/locales/");
      case "exs" -> path.contains("config/"); // Elixir's config/config.exs, runtime.exs, prod.exs
      case "py" -> PYTHON_SETTINGS.contains(stem) || path.contains("/settings/");
      case "js", "cjs", "mjs", "ts" ->
          stem.contains("config") || (name.startsWith(".") && stem.endsWith("rc"));
      default -> false;
    };
  }

  /** Well-known tools' configuration files whose names do not say so. */
  private static final Set<String> TOOL_CONFIGS =
      Set.of(
          "cdk.json",
          "angular.json",
          "nx.json",
          "turbo.json",
          "vercel.json",
          "firebase.json",
          "deno.json",
          "biome.json",
          "lerna.json");

  /** A directory of configuration: Hydra's {@code conf/}, {@code configs/}, {@code config/}. */
  private static final Pattern CONFIG_DIRECTORY = Pattern.compile("/(?:conf|configs?)/");

  /** The stems of a Python module that holds settings: Django's, a pydantic settings class. */
  private static final Set<String> PYTHON_SETTINGS =
      Set.of("settings", "config", "conf", "configuration");

  /**
   * A Python settings module's lines as assignments {@link #lineSettings} reads: an annotated one
   * ({@code access_token_ttl_minutes: int = 25}, a pydantic settings field) loses its type, one
   * with a type and no value says nothing and goes, and a comment after a value goes.
   */
  private static List<String> pythonAssignments(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      Matcher typed = PYTHON_ANNOTATED.matcher(line);
      if (typed.matches()) {
        line = typed.group(3) == null ? "" : typed.group(1) + " = " + typed.group(3);
      }
      out.add(line);
    }
    return withoutTrailingComments(out);
  }

  /**
   * {@code lines} without a comment after a value ({@code tag: "" # set per environment}), in the
   * formats whose comments may follow a value on its line (YAML, TOML, Python); a {@code #} with a
   * quote after it may be inside a string, and stays.
   */
  private static List<String> withoutTrailingComments(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    for (String line : lines) {
      Matcher comment = TRAILING_COMMENT.matcher(line);
      out.add(comment.find() ? line.substring(0, comment.start()) : line);
    }
    return out;
  }

  /** The files whose comments may follow a value on its line. */
  private static final Pattern HASH_COMMENTS = Pattern.compile("\\.(?:ya?ml|toml)$");

  /** {@code name: Type = value} or {@code name: Type}; group 1 the indent and name, 3 the value. */
  private static final Pattern PYTHON_ANNOTATED =
      Pattern.compile(
          "^(\\s*[A-Za-z_]\\w{0,80})\\s*:\\s*([A-Za-z_][\\w\\[\\], .|]{0,80}?)(?:\\s*=\\s*(.+))?$");

  /** A comment after a value with no quote in it: {@code DEBUG = False # never in prod}. */
  private static final Pattern TRAILING_COMMENT = Pattern.compile("(?<=\\S)\\s+#(?=[^\"']*$)");

  /** Settings of a file read line by line: keys nested by indentation, braces or a section. */
  static List<String[]> lineSettings(List<String> lines) {
    List<String[]> out = new ArrayList<>();
    Deque<Object[]> open = new ArrayDeque<>(); // {indent, key}
    String section = "";
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty() || comment(t)) {
        continue;
      }
      int indent = line.indexOf(t.charAt(0));
      while (!open.isEmpty() && (int) open.peek()[0] >= indent) {
        open.pop();
      }
      Matcher sec = SECTION.matcher(t);
      if (sec.matches()) {
        section = ProjectSettings.unquoted(sec.group(1).strip());
        open.clear();
        continue;
      }
      Matcher block = BLOCK.matcher(t);
      if (block.matches()) {
        open.push(new Object[] {indent, block.group(1)});
        continue;
      }
      Matcher pair = PAIR.matcher(t);
      if (!pair.matches() && !(pair = QUOTED_PAIR.matcher(t)).matches()) {
        continue;
      }
      String key = pair.group(2);
      String value = trimEnd(pair.group(3));
      if (opens(value)) {
        if (!root(key, t)) {
          open.push(new Object[] {indent, key});
        }
        continue;
      }
      List<String> path = new ArrayList<>();
      if (!section.isEmpty()) {
        path.add(section);
      }
      List<String> enclosing = new ArrayList<>();
      open.descendingIterator().forEachRemaining(o -> enclosing.add((String) o[1]));
      path.addAll(enclosing);
      if (value.startsWith("{") && value.endsWith("}")) {
        path.add(key);
        for (String part : value.substring(1, value.length() - 1).split(",")) {
          Matcher inner = PAIR.matcher(part.strip());
          if (inner.matches() || (inner = QUOTED_PAIR.matcher(part.strip())).matches()) {
            add(out, path, inner.group(2), trimEnd(inner.group(3)));
          }
        }
      } else {
        add(out, path, key, value);
      }
      if (out.size() >= MAX_SETTINGS) {
        break;
      }
    }
    return out.size() > MAX_SETTINGS ? out.subList(0, MAX_SETTINGS) : out;
  }

  /**
   * The settings of an Elixir config file: {@code config :app, Module,} (or {@code config :app,})
   * opens a context whose indented {@code key: value} lines, or whose one {@code key: value} on the
   * same line, are its settings, keyed by the module in words ("saltmarrow mailer adapter"); an
   * {@code if config_env() == :prod do} block puts the environment before them. Values that call
   * something ({@code System.fetch_env!("DATABASE_URL")}) or open a keyword list are left out, as
   * {@link #add} leaves them out of any file.
   */
  private static List<String[]> elixirSettings(List<String> lines) {
    List<String[]> out = new ArrayList<>();
    String env = "";
    String context = null;
    int contextIndent = 0;
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      int indent = line.indexOf(t.charAt(0));
      Matcher envBlock = ELIXIR_ENV.matcher(t);
      Matcher config = ELIXIR_CONFIG.matcher(t);
      Matcher pair = ELIXIR_PAIR.matcher(t);
      String key;
      String value;
      if (envBlock.matches()) {
        env = envBlock.group(1);
        context = null;
        continue;
      } else if (t.equals("end") && indent == 0) {
        env = "";
        context = null;
        continue;
      } else if (config.matches()) {
        context = config.group(2) != null ? config.group(2) : config.group(1);
        contextIndent = indent;
        Matcher inline = ELIXIR_PAIR.matcher(config.group(3).strip());
        if (!inline.matches()) {
          continue;
        }
        key = inline.group(1);
        value = inline.group(2);
      } else if (context != null && indent > contextIndent && pair.matches()) {
        key = pair.group(1);
        value = pair.group(2);
      } else {
        context = indent > contextIndent ? context : null;
        continue;
      }
      String v = trimEnd(value);
      if (v.startsWith("[") || v.startsWith("%{") || ELIXIR_VARIABLE.matcher(v).matches()) {
        continue; // a keyword list, a map, or a variable bound elsewhere
      }
      List<String> path = new ArrayList<>();
      if (!env.isEmpty()) {
        path.add(env);
      }
      path.add(context);
      add(out, path, key, v.startsWith(":") ? v.substring(1) : v);
      if (out.size() >= MAX_SETTINGS) {
        break;
      }
    }
    return out;
  }

  /**
   * The settings of a JSON file's text: every scalar, and every list of scalars, with its keys;
   * leaving out the top-level objects named in {@code dependencies} (a manifest's, which {@link
   * #dependencies} restates apart).
   */
  private static List<String[]> jsonSettings(String text, List<String> dependencies) {
    JsonNode root;
    try {
      root = ToolPayload.readTree(text);
    } catch (Exception e) { // not JSON after all (comments, a cut read): read it line by line
      return lineSettings(text.lines().toList());
    }
    if (root == null || !root.isObject()) {
      // a part of the file, such as the lines a grep printed: "react-native": "0.73.6",
      return lineSettings(text.lines().toList());
    }
    if (!dependencies.isEmpty()) {
      root = ((ObjectNode) root.deepCopy()).without(dependencies);
    }
    List<String[]> out = new ArrayList<>();
    json(root, new ArrayList<>(), out);
    return out;
  }

  /** Manifests by file name, with their sections of dependencies, the runtime ones first. */
  static final Map<String, List<String>> MANIFESTS =
      Map.of(
          "package.json",
          List.of("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"),
          "composer.json",
          List.of("require", "require-dev"));

  private static void json(JsonNode node, List<String> path, List<String[]> out) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (out.size() >= MAX_SETTINGS) {
        return;
      }
      JsonNode value = e.getValue();
      if (value.isObject()) {
        List<String> deeper = new ArrayList<>(path);
        deeper.add(e.getKey());
        json(value, deeper, out);
      } else if (value.isValueNode() && !value.isNull()) {
        add(out, path, e.getKey(), value.asText());
      } else if (value.isArray() && value.size() <= 8) {
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
          if (item.isValueNode() && !item.isNull()) {
            items.add(item.asText());
          }
        }
        if (items.size() == value.size() && !items.isEmpty()) {
          add(out, path, e.getKey(), String.join(", ", items));
        }
      }
    }
  }

  /**
   * Adds {@code path.key = value} as {key in words, value, the whole key path joined by dots} if
   * the value is a setting's.
   */
  private static void add(List<String[]> out, List<String> path, String key, String raw) {
    String value = ProjectSettings.unquoted(raw.strip());
    if (value.isEmpty()
        || value.length() > MAX_VALUE
        || value.startsWith("//")
        || value.contains("=>")
        || value.contains("(")
        || ProjectSettings.redacted(value)
        || ProjectSettings.redacted(key)
        || secret(key)) {
      return;
    }
    List<String> keys = new ArrayList<>(path.subList(Math.max(0, path.size() - 2), path.size()));
    keys.add(key);
    StringBuilder words = new StringBuilder();
    for (String k : keys) {
      words.append(words.length() == 0 ? "" : " ").append(words(k));
    }
    String shown =
        words(key).equals(key) ? words.toString() : words + " (" + key + ")"; // the key as written
    List<String> all = new ArrayList<>(path);
    all.add(key);
    out.add(new String[] {shown, value, String.join(".", all)});
  }

  /** A key in words: {@code baseUrl}, {@code BASE_URL} and {@code base-url} give "base url". */
  static String words(String key) {
    String spaced = CAMEL.matcher(key).replaceAll(" ");
    return spaced
        .replaceAll("[_\\-.$@]+", " ")
        .strip()
        .replaceAll("\\s+", " ")
        .toLowerCase(Locale.ROOT);
  }

  private static boolean secret(String key) {
    String[] words = words(key).split(" ");
    if (SECRET_MEASURES.contains(words[words.length - 1])) {
      return false; // "access token ttl minutes", "jwt key algorithm": a measure of it, no secret
    }
    for (String word : words) {
      if (SECRET_WORDS.contains(word)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Last words of a key that name a measure or a kind of a secret rather than the secret itself
   * ({@code access_token_ttl_minutes}, {@code api_key_header}): its value is a number, a flag or a
   * name, and kept.
   */
  private static final Set<String> SECRET_MEASURES =
      Set.of(
          "ttl",
          "minutes",
          "minute",
          "seconds",
          "second",
          "hours",
          "hour",
          "days",
          "day",
          "expiry",
          "expiration",
          "lifetime",
          "length",
          "size",
          "count",
          "max",
          "min",
          "limit",
          "timeout",
          "algorithm",
          "enabled",
          "header",
          "type");

  private static boolean opens(String value) {
    return value.isEmpty()
        || value.equals("{")
        || value.equals("[")
        || value.equals("(")
        || value.endsWith("({")
        || value.endsWith("= {")
        || value.equals("|")
        || value.equals(">");
  }

  /** A JavaScript module's own object ({@code module.exports = {}): its keys are the settings. */
  private static boolean root(String key, String line) {
    return key.equals("module.exports")
        || key.equals("exports")
        || line.startsWith("export ")
        || line.startsWith("const ")
        || line.startsWith("let ")
        || line.startsWith("var ");
  }

  private static boolean comment(String t) {
    return t.startsWith("#")
        || t.startsWith("//")
        || t.startsWith(";")
        || t.startsWith("/*")
        || t.startsWith("*")
        || t.startsWith("<!--")
        || t.startsWith("- ")
        || t.startsWith("}")
        || t.startsWith("]")
        || t.startsWith(")");
  }

  private static String trimEnd(String value) {
    String v = value.strip();
    while (v.endsWith(",") || v.endsWith(";")) {
      v = v.substring(0, v.length() - 1).strip();
    }
    return v;
  }
}
