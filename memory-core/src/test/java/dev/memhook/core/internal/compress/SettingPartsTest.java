package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingPartsTest {

  private static ProjectSettings.Found found(String file, List<String[]> settings) {
    return new ProjectSettings.Found(
        file,
        "Settings in " + file + ": " + ProjectSettings.said(settings) + ".",
        List.of(file),
        file,
        settings);
  }

  private static String[] setting(String keyPath, String value) {
    return new String[] {keyPath.replace('.', ' '), value, keyPath};
  }

  @Test
  void settingsThatFitInOnePart_areRestatedWholeUnderTheFilesTitle() {
    ProjectSettings.Found f =
        found(
            "app.yml", List.of(setting("server.port", "8082"), setting("server.host", "0.0.0.0")));

    assertEquals(List.of(f), SettingParts.of(f));
    assertSame(f, SettingParts.of(f).get(0));
  }

  @Test
  void aRestatementWithoutSettings_isLeftWhole() {
    ProjectSettings.Found f =
        new ProjectSettings.Found(
            "origin", "The repository's remote is " + "x".repeat(400) + ".", List.of(), "");

    assertEquals(List.of(f), SettingParts.of(f));
  }

  @Test
  void longSettings_arePackedByTopLevelKeyInFileOrder_eachPartFittingASummary() {
    List<String[]> settings = new ArrayList<>();
    settings.add(setting("devtools.enabled", "true"));
    settings.add(setting("modules", "['@pinia/nuxt', '@nuxtjs/i18n', '@nuxtjs/tailwindcss']"));
    settings.add(setting("site.url", "https://fernleaf.shop"));
    for (int i = 0; i < 6; i++) {
      settings.add(setting("i18n.locales." + i + ".code", "locale-code-number-" + i));
    }
    settings.add(setting("routeRules./products/**.swr", "600"));
    settings.add(setting("routeRules./checkout/payment.ssr", "false"));
    settings.add(setting("nitro.preset", "cloudflare-pages"));
    ProjectSettings.Found f = found("nuxt.config.ts", settings);

    List<ProjectSettings.Found> parts = SettingParts.of(f);

    assertEquals(
        List.of(
            "nuxt.config.ts: devtools, modules, site",
            "nuxt.config.ts: i18n",
            "nuxt.config.ts: routeRules, nitro"),
        parts.stream().map(ProjectSettings.Found::title).toList());
    assertEquals(
        "Settings in nuxt.config.ts: routeRules /products/** swr: 600; routeRules"
            + " /checkout/payment ssr: false; nitro preset: cloudflare-pages.",
        parts.get(2).content());
    for (ProjectSettings.Found p : parts) {
      assertTrue(p.content().length() <= SettingParts.PART_CHARS, p.content());
      assertEquals(List.of("nuxt.config.ts"), p.subjects());
      assertEquals("nuxt.config.ts", p.file());
    }
    assertEquals(
        settings,
        parts.stream().flatMap(p -> p.settings().stream()).toList(),
        "every setting in exactly one part, in file order");
  }

  @Test
  void aGroupTooLongForAPart_isCutIntoNumberedRuns_soThatEveryTitleIsItsOwn() {
    List<String[]> settings = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      settings.add(setting("quarkus.datasource.setting-" + i, "value-of-setting-" + i));
    }
    settings.add(setting("kafka.bootstrap.servers", "localhost:9092"));

    List<ProjectSettings.Found> parts = SettingParts.of(found("application.properties", settings));

    List<String> titles = parts.stream().map(ProjectSettings.Found::title).toList();
    assertEquals(
        List.of(
            "application.properties: quarkus",
            "application.properties: quarkus 2",
            "application.properties: quarkus 3, kafka"),
        titles);
    parts.forEach(p -> assertTrue(p.content().length() <= SettingParts.PART_CHARS, p.content()));
  }

  @Test
  void aSingleSettingLongerThanAPart_isAPartOfItsOwn() {
    String longValue = "v".repeat(SettingParts.PART_CHARS);
    ProjectSettings.Found f =
        found(
            "app.yml",
            List.of(setting("a.first", "1"), setting("b.long", longValue), setting("c.last", "3")));

    List<ProjectSettings.Found> parts = SettingParts.of(f);

    assertEquals(
        List.of("app.yml: a", "app.yml: b", "app.yml: c"),
        parts.stream().map(ProjectSettings.Found::title).toList());
    assertEquals("Settings in app.yml: b long: " + longValue + ".", parts.get(1).content());
  }

  @Test
  void aSettingWithoutAKeyPath_isGroupedByTheFirstWordOfItsKey() {
    List<String[]> settings = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      settings.add(new String[] {"versions lib" + i, "1.0." + i});
    }
    for (int i = 0; i < 10; i++) {
      settings.add(new String[] {"plugins plugin" + i, "2.0." + i});
    }

    List<String> titles =
        SettingParts.of(found("libs.versions.toml", settings)).stream()
            .map(ProjectSettings.Found::title)
            .toList();

    assertEquals(List.of("libs.versions.toml: versions", "libs.versions.toml: plugins"), titles);
  }

  @Test
  void theTopLevelOfAKeyPath_isItsFirstDottedLevel() {
    assertEquals("routeRules", SettingParts.topLevel("routeRules./products/**.swr"));
    assertEquals("modules", SettingParts.topLevel("modules"));
  }

  @Test
  void everyPartOfAFilesSettings_andTheFileRestatedWhole_shareOneSubject() {
    assertEquals(
        Optional.of("Project setting: nuxt.config.ts"),
        SettingParts.subject("Project setting: nuxt.config.ts: routeRules, image"));
    assertEquals(
        Optional.of("Project setting: nuxt.config.ts"),
        SettingParts.subject("Project setting: nuxt.config.ts"));
    assertEquals(
        Optional.of("Project setting: .nvmrc, the Node.js version"),
        SettingParts.subject("Project setting: .nvmrc, the Node.js version"));
    assertEquals(Optional.empty(), SettingParts.subject("Decision: use Postgres: for billing"));
    assertEquals(Optional.empty(), SettingParts.subject("nuxt.config.ts: routeRules"));
  }
}
