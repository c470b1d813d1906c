package dev.memhook.core.internal.compress;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a deployment exposes, as {@code terraform output} printed it, stated in the words a later
 * question uses. The output says {@code alb_dns_name = "shop-prod-alb-17.eu-central-1.elb
 * .amazonaws.com"}; a week later the user asks "what hostname do I give the uptime checker for the
 * prod load balancer?". So each output is restated with its name in words, the name as written, its
 * value and, where the value shows it, what kind of value it is: "alb dns name (alb_dns_name) =
 * shop-prod-alb-17.eu-central-1.elb.amazonaws.com, a hostname".
 *
 * <p>Both of Terraform's formats are read: {@code name = value} lines (a list's items joined, a map
 * left out) and {@code -json}'s objects. {@code -chdir=envs/prod} names where the outputs come
 * from. OpenTofu's {@code tofu} is read the same way. An output Terraform marks sensitive, and a
 * line or value the sanitizer touched, is left out; at most {@value Listings#MAX_ROWS} outputs are
 * restated.
 *
 * <p>Stateless and thread-safe.
 */
final class TerraformOutputs {

  /** The most items of a list output restated. */
  private static final int MAX_ITEMS = 4;

  /** The longest value restated: a longer one is data, not an address. */
  private static final int MAX_VALUE = 200;

  /** An output's first line: its name, and its value or the bracket that opens one. */
  private static final Pattern OUTPUT = Pattern.compile("^([A-Za-z_][\\w\\-]{0,80}) = (.+)$");

  /** A host name: labels of letters, digits and hyphens, two dots at least, a final word. */
  private static final Pattern HOST =
      Pattern.compile("(?i)^[a-z0-9](?:[a-z0-9\\-]{0,62}\\.){2,}[a-z]{2,24}$");

  /** An IPv4 address. */
  private static final Pattern IP = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}$");

  private TerraformOutputs() {}

  /**
   * The restatement of {@code terraform [-chdir=dir] output [-json] [-no-color]} as {@code words}
   * printed {@code output}, or empty for any other command.
   */
  static Optional<ProjectSettings.Found> of(List<String> words, String output) {
    String dir = "";
    int i = 1;
    if (i < words.size() && words.get(i).startsWith("-chdir=")) {
      dir = words.get(i).substring("-chdir=".length());
      i++;
    }
    if (i >= words.size() || !words.get(i).equals("output")) {
      return Optional.empty();
    }
    boolean json = false;
    for (String flag : words.subList(i + 1, words.size())) {
      if (flag.equals("-json")) {
        json = true;
      } else if (!flag.equals("-no-color")) {
        return Optional.empty(); // one output's raw value, or a state file elsewhere
      }
    }
    List<String> said = json ? fromJson(output) : fromText(output.lines().toList());
    if (said.isEmpty()) {
      return Optional.empty();
    }
    String command = String.join(" ", words);
    String where = dir.isEmpty() ? "" : " of " + dir;
    return Optional.of(
        new ProjectSettings.Found(
            "the Terraform outputs" + where,
            "The Terraform outputs"
                + where
                + ", what the deployment exposes ("
                + command
                + "): "
                + String.join("; ", said)
                + ".",
            List.of("terraform"),
            ""));
  }

  /** The outputs of the {@code name = value} format. */
  private static List<String> fromText(List<String> lines) {
    List<String> said = new ArrayList<>();
    for (int i = 0; i < lines.size() && said.size() < Listings.MAX_ROWS; i++) {
      Matcher m = OUTPUT.matcher(lines.get(i).strip());
      if (!m.matches()) {
        continue;
      }
      String value = m.group(2).strip();
      if (value.equals("[") || value.equals("tolist([") || value.equals("toset([")) {
        List<String> items = new ArrayList<>();
        boolean scalars = true;
        int depth = 0; // a list of objects or lists is left out whole, its nested brackets skipped
        while (++i < lines.size() && !(depth == 0 && lines.get(i).strip().startsWith("]"))) {
          String item = unquoted(lines.get(i).strip().replaceAll(",$", ""));
          if (item.endsWith("{") || item.endsWith("[")) {
            depth++;
            scalars = false;
          } else if (item.startsWith("}") || item.startsWith("]")) {
            depth = Math.max(0, depth - 1);
          } else if (items.size() < MAX_ITEMS && !item.isEmpty()) {
            items.add(item);
          }
        }
        if (scalars) {
          add(said, m.group(1), items);
        }
      } else if (value.equals("{") || value.endsWith("({")) {
        int depth = 1; // a map: its keys are another output's business
        while (depth > 0 && ++i < lines.size()) {
          String t = lines.get(i).strip();
          depth += t.endsWith("{") ? 1 : 0;
          depth -= t.startsWith("}") ? 1 : 0;
        }
      } else if (!value.equals("<sensitive>")) {
        add(said, m.group(1), List.of(unquoted(value)));
      }
    }
    return said;
  }

  /** The outputs of {@code -json}: each name's {@code value}, unless {@code sensitive}. */
  private static List<String> fromJson(String output) {
    JsonNode root;
    try {
      root = ToolPayload.readTree(output);
    } catch (Exception e) {
      return List.of(); // not the JSON it claims to be
    }
    List<String> said = new ArrayList<>();
    if (root == null || !root.isObject()) {
      return said;
    }
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (said.size() == Listings.MAX_ROWS) {
        break;
      }
      JsonNode value = e.getValue().path("value");
      if (e.getValue().path("sensitive").asBoolean(false)
          || !OUTPUT.matcher(e.getKey() + " = x").matches()) {
        continue;
      }
      List<String> items = new ArrayList<>();
      if (value.isValueNode() && !value.isNull()) {
        items.add(value.asText());
      } else if (value.isArray()) {
        for (JsonNode item : value) {
          if (item.isValueNode() && !item.isNull() && items.size() < MAX_ITEMS) {
            items.add(item.asText());
          }
        }
      }
      add(said, e.getKey(), items);
    }
    return said;
  }

  /** Adds output {@code name} with its values, unless one is empty, too long or redacted. */
  private static void add(List<String> said, String name, List<String> values) {
    if (values.isEmpty() || ProjectSettings.redacted(name)) {
      return;
    }
    for (String v : values) {
      if (v.isBlank() || v.length() > MAX_VALUE || ProjectSettings.redacted(v)) {
        return;
      }
    }
    String words = ConfigurationFiles.words(name);
    String shown = words.equals(name) ? words : words + " (" + name + ")";
    String kind = values.size() == 1 ? kind(values.get(0)) : "";
    said.add(shown + " = " + String.join(", ", values) + (kind.isEmpty() ? "" : ", " + kind));
  }

  /** What kind of value {@code v} is, where its shape says: "a hostname", "an IP address". */
  static String kind(String v) {
    if (v.startsWith("https://") || v.startsWith("http://")) {
      return "a URL";
    }
    int colon = v.lastIndexOf(':');
    if (colon > 0 && v.substring(colon + 1).matches("\\d{1,5}")) {
      String host = v.substring(0, colon);
      if (HOST.matcher(host).matches()) {
        return "a hostname and port";
      }
      return IP.matcher(host).matches() ? "an IP address and port" : "";
    }
    if (IP.matcher(v).matches()) {
      return "an IP address";
    }
    return HOST.matcher(v).matches() ? "a hostname" : "";
  }

  /** {@code s} without the double quotes around it. */
  private static String unquoted(String s) {
    return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")
        ? s.substring(1, s.length() - 1)
        : s;
  }
}
