package dev.memhook.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One {@code ```java} block of a Markdown file, with the marker before it that says how it
 * compiles. The convention (also in DEVELOPERS.md): every Java block is preceded by an HTML
 * comment, invisible on GitHub,
 *
 * <pre>
 * &lt;!-- snippet
 * needs: dev.memhook:memory-core com.zaxxer:HikariCP
 * imports: javax.sql.DataSource com.zaxxer.hikari.HikariConfig
 * given: ChatService chat; Logger log
 * declares: interface Assistant { String chat(String message); }
 * wraps: class
 * --&gt;
 * </pre>
 *
 * <ul>
 *   <li>{@code needs}: the artifacts ({@code group:artifact}) a project adds for the snippet; the
 *       file must name each before the snippet, in the snippet's section or the file's
 *       introduction, and the snippet compiles with only the named Memhook modules (and the Memhook
 *       modules they depend on) on the class path;
 *   <li>{@code imports}: the types it uses beyond Memhook's exported packages and {@code
 *       java.util}, {@code java.nio.file} and {@code java.time}, which every snippet imports;
 *   <li>{@code given}: what the snippet uses without making it, {@code Type name} separated by
 *       {@code ;} (parameters of the method it is wrapped in, or fields);
 *   <li>{@code declares}: members the snippet refers to but does not show, put in the class;
 *   <li>{@code wraps}: {@code method} (the default: the snippet is statements, the body of a method
 *       that may throw anything) or {@code class} (the snippet is class members).
 * </ul>
 *
 * @param file the Markdown file, relative to the repository root
 * @param line the line of the opening fence, 1-based
 * @param code the block's lines, without the list indentation of its fence
 * @param marker whether a marker precedes the block
 * @param context the file's introduction (before its first {@code ##} heading) and the snippet's
 *     section up to the block, where its artifacts must be named
 */
record ReadmeSnippet(
    Path file,
    int line,
    String code,
    boolean marker,
    List<String> needs,
    List<String> imports,
    List<String> given,
    String declares,
    boolean classBody,
    String context) {

  private static final String FENCE = "```";
  private static final String MARKER = "<!-- snippet";

  ReadmeSnippet {
    Objects.requireNonNull(file, "file");
    needs = List.copyOf(needs);
    imports = List.copyOf(imports);
    given = List.copyOf(given);
  }

  /** Every Java block of {@code root.resolve(file)}, in order. */
  static List<ReadmeSnippet> parse(Path root, Path file) throws IOException {
    List<String> lines = Files.readAllLines(root.resolve(file), StandardCharsets.UTF_8);
    List<ReadmeSnippet> out = new ArrayList<>();
    int lastHeading = 0;
    int firstSection = -1;
    for (int i = 0; i < lines.size(); i++) {
      String stripped = lines.get(i).strip();
      if (lines.get(i).startsWith("#")) {
        lastHeading = i;
        if (firstSection < 0 && lines.get(i).startsWith("## ")) {
          firstSection = i;
        }
      }
      if (!stripped.startsWith(FENCE)) {
        continue;
      }
      int end = i + 1;
      while (end < lines.size() && !lines.get(end).strip().equals(FENCE)) {
        end++;
      }
      if (stripped.equals(FENCE + "java")) {
        int indent = lines.get(i).indexOf(FENCE);
        List<String> code = new ArrayList<>();
        for (String l : lines.subList(i + 1, end)) {
          code.add(
              l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l);
        }
        String intro = String.join("\n", lines.subList(0, Math.max(0, firstSection)));
        String section = String.join("\n", lines.subList(lastHeading, i));
        out.add(withMarker(file, i + 1, String.join("\n", code), lines, i, intro + "\n" + section));
      }
      i = end; // a fenced line starting with # is no heading
    }
    return out;
  }

  private static ReadmeSnippet withMarker(
      Path file, int line, String code, List<String> lines, int fence, String context) {
    int end = fence - 1;
    if (end < 0 || !lines.get(end).strip().endsWith("-->")) {
      return new ReadmeSnippet(
          file, line, code, false, List.of(), List.of(), List.of(), "", false, context);
    }
    int start = end;
    while (start > 0 && !lines.get(start).strip().startsWith("<!--")) {
      start--;
    }
    String first = lines.get(start).strip();
    if (!first.startsWith(MARKER)) {
      return new ReadmeSnippet(
          file, line, code, false, List.of(), List.of(), List.of(), "", false, context);
    }
    List<String> needs = new ArrayList<>();
    List<String> imports = new ArrayList<>();
    List<String> given = new ArrayList<>();
    StringBuilder declares = new StringBuilder();
    boolean classBody = false;
    for (String raw : lines.subList(start, end + 1)) {
      String clause = raw.strip().replace(MARKER, "").replace("-->", "").strip();
      int colon = clause.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String value = clause.substring(colon + 1).strip();
      switch (clause.substring(0, colon).strip()) {
        case "needs" -> needs.addAll(words(value));
        case "imports" -> imports.addAll(words(value));
        case "given" ->
            given.addAll(
                Arrays.stream(value.split(";"))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .toList());
        case "declares" -> declares.append(value).append('\n');
        case "wraps" -> classBody = value.equals("class");
        default ->
            throw new IllegalArgumentException(
                file + ":" + (start + 1) + ": unknown marker clause " + clause);
      }
    }
    return new ReadmeSnippet(
        file, line, code, true, needs, imports, given, declares.toString(), classBody, context);
  }

  private static List<String> words(String value) {
    return Arrays.stream(value.split("\\s+")).filter(s -> !s.isEmpty()).toList();
  }

  /** The Memhook modules ({@code dev.memhook:} artifacts) among {@link #needs}. */
  List<String> memhookModules() {
    return needs.stream()
        .filter(n -> n.startsWith("dev.memhook:"))
        .map(n -> n.substring("dev.memhook:".length()))
        .toList();
  }

  /** The name of the class the snippet is wrapped in. */
  String className() {
    return "Snippet_" + file.toString().replaceAll("[^A-Za-z0-9]", "_") + "_" + line;
  }

  /** A compilation unit holding the snippet, importing {@code packages.*} and {@link #imports}. */
  String source(Collection<String> packages) {
    StringBuilder s = new StringBuilder();
    packages.forEach(p -> s.append("import ").append(p).append(".*;\n"));
    imports.forEach(i -> s.append("import ").append(i).append(";\n"));
    s.append("@SuppressWarnings(\"unused\")\nclass ").append(className()).append(" {\n");
    s.append(declares);
    if (classBody) {
      given.forEach(g -> s.append(g).append(";\n"));
      s.append(code).append('\n');
    } else {
      s.append("void snippet(").append(String.join(", ", given)).append(") throws Exception {\n");
      s.append(code).append("\n}\n");
    }
    return s.append("}\n").toString();
  }

  @Override
  public String toString() {
    return file + ":" + line;
  }
}
