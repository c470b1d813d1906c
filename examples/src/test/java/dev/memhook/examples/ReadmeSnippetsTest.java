package dev.memhook.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Java snippet of the READMEs and docs compiles as written, in a project that adds only the
 * artifacts its file names for it. Each {@code ```java} block carries a marker saying which
 * artifacts it needs, what it imports and what it is given ({@link ReadmeSnippet} has the
 * convention); the snippet is wrapped in a class and compiled with javac against this module's test
 * class path, from which every Memhook module the marker does not need (directly or through another
 * Memhook module's dependencies) is removed.
 */
class ReadmeSnippetsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final List<String> JAVA_PACKAGES =
      List.of("java.util", "java.nio.file", "java.time");
  private static final Pattern MEMHOOK_DEPENDENCY =
      Pattern.compile(
          "<dependency>\\s*<groupId>dev\\.memhook</groupId>\\s*<artifactId>([^<]+)</artifactId>"
              + "(.*?)</dependency>",
          Pattern.DOTALL);

  @TempDir Path classes;

  /** The Markdown files whose Java blocks are checked. */
  static List<Path> documents() throws IOException {
    List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> modules = Files.list(ROOT)) {
      modules
          .filter(m -> Files.isRegularFile(m.resolve("README.md")))
          .map(m -> ROOT.relativize(m.resolve("README.md")))
          .sorted()
          .forEach(files::add);
    }
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(d -> d.toString().endsWith(".md"))
          .map(ROOT::relativize)
          .sorted()
          .forEach(files::add);
    }
    return files;
  }

  static List<ReadmeSnippet> snippets() throws IOException {
    List<ReadmeSnippet> all = new ArrayList<>();
    for (Path file : documents()) {
      all.addAll(ReadmeSnippet.parse(ROOT, file));
    }
    return all;
  }

  @Test
  void everyJavaBlock_isFound_andSaysHowItCompiles() throws IOException {
    long blocks = 0;
    for (Path file : documents()) {
      blocks +=
          Files.readAllLines(ROOT.resolve(file), StandardCharsets.UTF_8).stream()
              .filter(l -> l.strip().equals("```java"))
              .count();
    }
    List<ReadmeSnippet> snippets = snippets();

    assertEquals(blocks, snippets.size(), "every ```java block is parsed");
    assertTrue(blocks >= 10, "the READMEs' snippets are found: " + snippets);
    for (ReadmeSnippet s : snippets) {
      assertTrue(s.marker(), s + ": put a <!-- snippet ... --> marker before the block");
      assertTrue(!s.needs().isEmpty(), s + ": the marker says what the snippet needs");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snippets")
  void snippet_namesEveryArtifactItNeeds_beforeIt(ReadmeSnippet snippet) {
    for (String coordinate : snippet.needs()) {
      String[] parts = coordinate.split(":");
      boolean inXml =
          snippet.context().contains("<groupId>" + parts[0] + "</groupId>")
              && snippet.context().contains("<artifactId>" + parts[1] + "</artifactId>");
      assertTrue(
          snippet.context().contains(coordinate) || inXml,
          snippet
              + " needs "
              + coordinate
              + ": name it in the snippet's section, before it, or in the file's introduction");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snippets")
  void snippet_compilesWithOnlyTheArtifactsItNeeds(ReadmeSnippet snippet) throws IOException {
    Set<String> modules = withDependencies(snippet.memhookModules());
    List<Path> classpath = new ArrayList<>();
    List<Path> memhook = new ArrayList<>();
    for (Path entry : testClasspath()) {
      Optional<String> module = memhookModule(entry);
      if (module.isEmpty()) {
        classpath.add(entry);
      } else if (modules.contains(module.get())) {
        classpath.add(entry);
        memhook.add(entry);
      }
    }
    assertEquals(
        modules,
        memhook.stream()
            .map(e -> memhookModule(e).orElseThrow())
            .collect(TreeSet::new, Set::add, Set::addAll),
        snippet + ": every module it needs is on this module's test class path");
    Set<String> packages = new TreeSet<>(JAVA_PACKAGES);
    for (Path entry : memhook) {
      packages.addAll(exportedPackages(entry));
    }
    String source = snippet.source(packages);

    String errors = compile(snippet.className(), source, classpath);

    assertEquals("", errors, snippet + " does not compile:\n" + errors + "\n" + numbered(source));
  }

  private String compile(String className, String source, List<Path> classpath) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK runs the tests");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavaFileObject unit =
        new SimpleJavaFileObject(
            URI.create("string:///" + className + JavaFileObject.Kind.SOURCE.extension),
            JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    List<String> options =
        List.of(
            "-proc:none",
            "-nowarn",
            "--release",
            "17",
            "-d",
            classes.toString(),
            "-classpath",
            String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()));
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      javac.getTask(out, files, diagnostics, options, null, List.of(unit)).call();
    }
    StringBuilder errors = new StringBuilder();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        errors
            .append("line ")
            .append(d.getLineNumber())
            .append(": ")
            .append(d.getMessage(Locale.ROOT))
            .append('\n');
      }
    }
    return errors.toString();
  }

  /** The Memhook modules {@code modules} need: themselves and their Memhook dependencies. */
  private static Set<String> withDependencies(List<String> modules) throws IOException {
    Set<String> all = new TreeSet<>();
    Deque<String> todo = new ArrayDeque<>(modules);
    while (!todo.isEmpty()) {
      String module = todo.pop();
      if (!all.add(module)) {
        continue;
      }
      String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
      pom = pom.replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "");
      Matcher dependency = MEMHOOK_DEPENDENCY.matcher(pom);
      while (dependency.find()) {
        String rest = dependency.group(2);
        if (!rest.contains("<scope>test</scope>") && !rest.contains("<optional>true</optional>")) {
          todo.push(dependency.group(1));
        }
      }
    }
    return all;
  }

  /** The test class path, the entries of surefire's manifest-only jar expanded. */
  private static List<Path> testClasspath() throws IOException {
    Set<Path> entries = new LinkedHashSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      String classPath = null;
      if (entry.endsWith(".jar") && Files.isRegularFile(path)) {
        try (JarFile jar = new JarFile(path.toFile())) {
          Manifest manifest = jar.getManifest();
          classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
        }
      }
      if (classPath == null) {
        entries.add(path);
      } else {
        for (String url : classPath.strip().split("\\s+")) {
          URI uri = path.getParent().toUri().resolve(url);
          entries.add(Path.of(uri));
        }
      }
    }
    return List.copyOf(entries);
  }

  /**
   * The Memhook module a class path entry belongs to: in this repository or in a Maven repository.
   */
  private static Optional<String> memhookModule(Path entry) {
    Path path = entry.toAbsolutePath().normalize();
    if (path.startsWith(ROOT)) {
      return Optional.of(ROOT.relativize(path).getName(0).toString());
    }
    String s = path.toString().replace(File.separatorChar, '/');
    int at = s.indexOf("/dev/memhook/");
    return at < 0
        ? Optional.empty()
        : Optional.of(s.substring(at + "/dev/memhook/".length()).split("/")[0]);
  }

  /** The packages of the entry's classes, but {@code internal} ones. */
  private static Set<String> exportedPackages(Path entry) throws IOException {
    Set<String> classFiles = new TreeSet<>();
    if (Files.isDirectory(entry)) {
      try (Stream<Path> walk = Files.walk(entry)) {
        walk.filter(p -> p.toString().endsWith(".class"))
            .map(p -> entry.relativize(p).toString().replace(File.separatorChar, '/'))
            .forEach(classFiles::add);
      }
    } else if (Files.isRegularFile(entry)) {
      try (JarFile jar = new JarFile(entry.toFile())) {
        jar.stream()
            .map(ZipEntry::getName)
            .filter(n -> n.endsWith(".class"))
            .forEach(classFiles::add);
      }
    }
    Set<String> packages = new TreeSet<>();
    for (String name : classFiles) {
      int slash = name.lastIndexOf('/');
      String pkg = slash < 0 ? "" : name.substring(0, slash).replace('/', '.');
      if (pkg.startsWith("dev.memhook") && !pkg.contains(".internal") && !name.contains("-info")) {
        packages.add(pkg);
      }
    }
    return packages;
  }

  private static String numbered(String source) {
    StringBuilder out = new StringBuilder();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      out.append(String.format(Locale.ROOT, "%4d  %s%n", i + 1, lines[i]));
    }
    return out.toString();
  }
}
