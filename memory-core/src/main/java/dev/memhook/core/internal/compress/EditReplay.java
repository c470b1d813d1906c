package dev.memhook.core.internal.compress;

import java.util.List;
import java.util.Locale;

/**
 * A file's text as the agent's later edits of it left it. A session that reads a configuration file
 * and then fixes it has read the file as it was; replaying its edits on what it read says what the
 * file holds now. An edit is replayed as its tool applies it: a replacement of text the file holds
 * exactly once (every time, when the input says {@code replace_all}), or a write of the whole file.
 * Whatever cannot be replayed exactly gives no text, and the file's content is then unknown: an
 * edit whose old text the file does not hold, or holds more than once; an input that is not whole
 * JSON (cut short); an edit of several places at once ({@code MultiEdit}, a patch); an edit of
 * another file of the same name.
 *
 * <p>Stateless and thread-safe.
 */
final class EditReplay {

  private EditReplay() {}

  /**
   * {@code text}, the content of the file at {@code path}, with {@code edits} (file edits of it, in
   * the order they were made) applied; null if one of them cannot be replayed exactly.
   */
  static String replayed(String path, String text, List<ObservationView> edits) {
    String now = text;
    for (ObservationView edit : edits) {
      now = applied(path, now, edit);
      if (now == null) {
        return null;
      }
    }
    return now;
  }

  private static String applied(String path, String text, ObservationView edit) {
    String tool = edit.tool().toLowerCase(Locale.ROOT);
    ToolPayload input = ToolPayload.of(ObservationText.part(edit.memory().content(), "input"));
    if (input.fields().isEmpty()
        || !samePath(path, input.field("file_path", "filePath", "path", "file"))) {
      return null;
    }
    String command = input.field("command");
    if (tool.equals("write") || tool.equals("write_file") || command.equals("create")) {
      String whole = input.field("content", "file_text");
      return whole.isEmpty() ? null : whole;
    }
    if (!tool.equals("edit") && !tool.startsWith("str_replace")
        || !command.isEmpty() && !command.equals("str_replace")) {
      return null;
    }
    String before = input.field("old_string", "old_str", "oldString");
    String after = rawField(input, "new_string", "new_str", "newString");
    int at = before.isEmpty() ? -1 : text.indexOf(before);
    if (at < 0) {
      return null;
    }
    if (input.field("replace_all", "replaceAll").equals("true")) {
      return text.replace(before, after);
    }
    if (text.indexOf(before, at + 1) >= 0) {
      return null; // the tool itself refuses an ambiguous replacement
    }
    return text.substring(0, at) + after + text.substring(at + before.length());
  }

  /** A field's value, "" kept as the empty text it is (a deletion's new text is empty). */
  private static String rawField(ToolPayload input, String... names) {
    for (String name : names) {
      String value = input.fields().get(name);
      if (value != null) {
        return value;
      }
    }
    return "";
  }

  /**
   * Whether two paths name one file: equal once their separators agree, or one a relative path the
   * other ends with ("config/app.toml" and "/home/dev/src/x/config/app.toml").
   */
  static boolean samePath(String a, String b) {
    String x = a.strip().replace('\\', '/');
    String y = b.strip().replace('\\', '/');
    if (x.isEmpty() || y.isEmpty()) {
      return false;
    }
    if (x.startsWith("./")) {
      x = x.substring(2);
    }
    if (y.startsWith("./")) {
      y = y.substring(2);
    }
    return x.equals(y) || x.endsWith("/" + y) || y.endsWith("/" + x);
  }
}
