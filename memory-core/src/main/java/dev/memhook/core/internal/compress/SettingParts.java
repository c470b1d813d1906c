package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A configuration file's restated settings cut into parts an injection shows whole.
 *
 * <p>A batched injection shows a memory's summary, the opening of its content cut near {@link
 * #PART_CHARS} characters. A file's settings restated as one memory show the model their first few;
 * a later question about a setting past them ("how long do the product pages stay cached?", with
 * {@code routeRules} after the modules, the site and the sitemap) finds the memory and shows the
 * wrong part of it. So settings longer than a summary are restated in parts: the settings are
 * grouped by their top-level key ({@code routeRules}, {@code runtimeConfig}; a group too long for a
 * part by its second-level key, then by its third: {@code quarkus.http}, {@code
 * quarkus.datasource}, {@code mp.messaging}), and groups are packed into parts in file order, each
 * part at most {@link #PART_CHARS} characters (a single setting longer than that is a part of its
 * own). Each part is a memory of its own, found by its own words, titled by the file and the groups
 * it holds ("nuxt.config.ts: routeRules, image, nitro"), so that a later read of the same file
 * replaces each part whose groups it restates again; a file whose settings fit in one part is
 * restated whole, as before. A later read may cut the file differently (a value grew, a group
 * went): a part it no longer yields would stand beside the new ones with old values, so the
 * memories of one file's settings share a subject ({@link #subject}), and capture retires those of
 * a subject a session restated that it did not restate again.
 *
 * <p>Stateless and thread-safe.
 */
public final class SettingParts {

  /** How the title of every restatement of a project's setting begins. */
  static final String TITLE_PREFIX = "Project setting: ";

  /** The most characters of a part's restatement: about what an injection shows of a memory. */
  static final int PART_CHARS = 300;

  /**
   * The importance of every part but the first: a file's first settings are its headline ones (an
   * application's name and port), which a standing profile, ordered by importance, should offer
   * before the rest.
   */
  static final double LATER_PART_IMPORTANCE = 0.5;

  private SettingParts() {}

  /**
   * {@code found} as it is when it holds no settings or fits in one part; else its parts, in file
   * order.
   */
  static List<ProjectSettings.Found> of(ProjectSettings.Found found) {
    if (found.settings().isEmpty() || found.content().length() <= PART_CHARS) {
      return List.of(found);
    }
    List<ProjectSettings.Found> out = new ArrayList<>();
    List<Group> part = new ArrayList<>();
    // what a part's settings may take: the part less its "Settings in <file>: " and full stop
    int room = PART_CHARS - ("Settings in " + found.file() + ": .").length();
    int length = 0; // of the part's settings said, "; " between them
    for (Group g : groups(found.settings(), room)) {
      int added = g.said().length() + (part.isEmpty() ? 0 : 2);
      if (!part.isEmpty() && length + added > room) {
        out.add(part(found, part));
        part = new ArrayList<>();
        added = g.said().length();
        length = 0;
      }
      part.add(g);
      length += added;
    }
    if (!part.isEmpty()) {
      out.add(part(found, part));
    }
    return out;
  }

  private static ProjectSettings.Found part(ProjectSettings.Found found, List<Group> groups) {
    String names = String.join(", ", groups.stream().map(Group::name).toList());
    List<String[]> settings = groups.stream().flatMap(g -> g.settings().stream()).toList();
    return new ProjectSettings.Found(
        found.title() + ": " + names,
        "Settings in " + found.file() + ": " + ProjectSettings.said(settings) + ".",
        found.subjects(),
        found.file(),
        settings);
  }

  /**
   * The subject of a consolidated memory's title when it restates a project's setting: the title up
   * to the part's groups ("Project setting: nuxt.config.ts" for "Project setting: nuxt.config.ts:
   * routeRules, image"), the title itself for a file restated whole or any other setting ("Project
   * setting: .nvmrc, the Node.js version"); empty for every other title. Every part of one file's
   * settings, and the file restated whole, share one subject.
   */
  public static Optional<String> subject(String title) {
    if (!title.startsWith(TITLE_PREFIX)) {
      return Optional.empty();
    }
    int groups = title.indexOf(": ", TITLE_PREFIX.length());
    return Optional.of(groups < 0 ? title : title.substring(0, groups));
  }

  /**
   * {@code settings} grouped by their key's first level, groups in the order of their first
   * setting; a group whose settings take more than {@code room} characters in runs that each fit.
   */
  private static List<Group> groups(List<String[]> settings, int room) {
    Map<String, List<String[]>> byKey = new LinkedHashMap<>();
    for (String[] s : settings) {
      byKey.computeIfAbsent(topLevel(key(s)), k -> new ArrayList<>()).add(s);
    }
    List<Group> out = new ArrayList<>();
    byKey.forEach((name, members) -> out.addAll(runs(new Group(name, members), room)));
    return out;
  }

  /**
   * {@code g} whole if it fits in a part, else in runs of its settings in order that each fit (a
   * setting too long for a part is a run of its own), named "name", "name 2", … so that each part's
   * title is its own.
   */
  private static List<Group> runs(Group g, int room) {
    if (g.said().length() <= room) {
      return List.of(g);
    }
    List<Group> out = new ArrayList<>();
    List<String[]> run = new ArrayList<>();
    for (String[] s : g.settings()) {
      List<String[]> with = new ArrayList<>(run);
      with.add(s);
      if (!run.isEmpty() && ProjectSettings.said(with).length() > room) {
        out.add(new Group(runName(g.name(), out.size()), run));
        with = new ArrayList<>(List.<String[]>of(s));
      }
      run = with;
    }
    out.add(new Group(runName(g.name(), out.size()), run));
    return out;
  }

  private static String runName(String name, int index) {
    return index == 0 ? name : name + " " + (index + 1);
  }

  /**
   * A setting's key path, its levels joined by dots: the third element a configuration file's
   * reader gives, or else the key in words.
   */
  private static String key(String[] setting) {
    return setting.length > 2 ? setting[2] : setting[0].replace(' ', '.');
  }

  /** The first level of a dotted key path: "routeRules" of "routeRules./products/**.swr". */
  static String topLevel(String key) {
    int dot = key.indexOf('.');
    return dot < 0 ? key : key.substring(0, dot);
  }

  /** Settings that share a key prefix. */
  private record Group(String name, List<String[]> settings) {
    String said() {
      return ProjectSettings.said(settings);
    }
  }
}
