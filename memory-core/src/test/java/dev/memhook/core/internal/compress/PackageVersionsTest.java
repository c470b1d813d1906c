package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PackageVersionsTest {

  private static String said(String command, String output) {
    return PackageVersions.of(command, output).orElseThrow().content();
  }

  @Test
  void aBoxedOutdatedTable_statesEachPackagesInstalledAndLatestVersion() {
    String output =
        """
        ┌──────────────────────┬─────────┬────────┐
        │ Package              │ Current │ Latest │
        ├──────────────────────┼─────────┼────────┤
        │ svelte (dev)         │ 4.2.12  │ 5.1.3  │
        ├──────────────────────┼─────────┼────────┤
        │ @sveltejs/kit (dev)  │ 2.5.4   │ 2.7.3  │
        ├──────────────────────┼─────────┼────────┤
        │ @tanstack/query      │ 5.40.0  │ 5.59.0 │
        └──────────────────────┴─────────┴────────┘
        """;

    ProjectSettings.Found found = PackageVersions.of("pnpm outdated", output).orElseThrow();

    assertEquals(
        "Installed versions of the project's packages (pnpm outdated): svelte 4.2.12 (latest"
            + " 5.1.3), @sveltejs/kit 2.5.4 (latest 2.7.3), @tanstack/query 5.40.0 (latest 5.59.0).",
        found.content());
    assertEquals("the installed package versions (pnpm outdated)", found.title());
    assertEquals(List.of("pnpm", "svelte", "@sveltejs/kit", "@tanstack/query"), found.subjects());
    assertEquals("", found.file());
  }

  @Test
  void anAlignedOutdatedTable_isReadByItsHeader_andAPackageNotInstalledIsLeftOut() {
    String output =
        """
        Package     Current  Wanted  Latest  Location                 Depended by
        react        18.2.0  18.3.1  18.3.1  node_modules/react       shop
        typescript    5.3.3   5.3.3   5.6.2  node_modules/typescript  shop
        left-pad    MISSING   1.3.0   1.3.0  -                        shop
        """;

    assertEquals(
        "Installed versions of the project's packages (npm outdated): react 18.2.0 (latest"
            + " 18.3.1), typescript 5.3.3 (latest 5.6.2).",
        said("npm outdated", output));
  }

  @Test
  void pipsListings_giveTheInstalledVersions_underAnyOfPipsNames() {
    String outdated =
        """
        Package    Version Latest Type
        ---------- ------- ------ -----
        numpy      1.26.4  2.1.3  wheel
        torch      2.3.1   2.5.1  wheel
        """;
    assertEquals(
        "Installed versions of the project's packages (python -m pip list --outdated): numpy"
            + " 1.26.4 (latest 2.1.3), torch 2.3.1 (latest 2.5.1).",
        said("python -m pip list --outdated", outdated));

    String list = "Package Version\n------- -------\nrequests 2.31.0\nurllib3 2.2.1\n";
    assertEquals(
        "Installed versions of the project's packages (uv pip list): requests 2.31.0, urllib3"
            + " 2.2.1.",
        said("uv pip list", list));

    String frozen =
        "requests==2.31.0\nuvicorn[standard]==0.29.0\n-e git+https://example.org/x.git#egg=x\n";
    assertEquals(
        "Installed versions of the project's packages (pip3 freeze): requests 2.31.0, uvicorn"
            + " 0.29.0.",
        said("pip3 freeze", frozen));
  }

  @Test
  void npmLs_readsOnlyTheTopOfItsTree() {
    String output =
        """
        shop@1.0.0 /home/dev/shop
        ├── react@18.2.0
        ├─┬ vite@5.2.0
        │ └── esbuild@0.20.2
        └── zod@3.23.8
        """;

    assertEquals(
        "Installed versions of the project's packages (npm ls): react 18.2.0, vite 5.2.0, zod"
            + " 3.23.8.",
        said("npm ls", output));
  }

  @Test
  void pnpmLs_readsThePackagesUnderItsDependencyHeadings() {
    String output =
        """
        Legend: production dependency, optional only, dev only

        shop@1.0.0 /home/dev/shop

        dependencies:
        react 18.2.0

        devDependencies:
        svelte 4.2.12
        """;

    assertEquals(
        "Installed versions of the project's packages (pnpm ls): react 18.2.0, svelte 4.2.12.",
        said("pnpm ls", output));
  }

  @Test
  void aCommandAskingAboutOnePackage_statesTheVersionsTheOutputGivesIt() {
    assertEquals(
        "The project's installed version of sharp (pnpm why sharp): sharp 0.32.6.",
        said(
            "pnpm why sharp",
            "Legend: production dependency, optional only, dev only\n\nshop@1.8.0 /x\n\n"
                + "dependencies:\n@shop/images link:packages/images\n└── sharp 0.32.6\n"));
    assertEquals(
        "The project's installed version of sharp (npm ls sharp): sharp 0.33.2.",
        said("npm ls sharp", "shop@1.8.0 /x\n└─┬ @shop/images@1.0.0\n  └── sharp@0.33.2\n"));
    assertEquals(
        "The project's installed version of requests (pip show requests): requests 2.31.0.",
        said("pip show requests", "Name: requests\nVersion: 2.31.0\nSummary: HTTP for Humans.\n"));
    assertEquals(
        "The project's installed version of serde (cargo tree -i serde): serde 1.0.197.",
        said("cargo tree -i serde", "serde v1.0.197\n├── serde_json v1.0.114\n"));
    assertEquals(
        "The project's installed version of golang.org/x/net (go list -m golang.org/x/net):"
            + " golang.org/x/net 0.24.0.",
        said("go list -m golang.org/x/net", "golang.org/x/net v0.24.0\n"));
  }

  @Test
  void aDependencyListingFilteredForOneName_statesThatPackagesResolvedVersions() {
    String output =
        """
        +--- com.squareup.retrofit2:retrofit:2.9.0
        |    \\--- com.squareup.okhttp3:okhttp:3.14.9 -> 4.12.0
        +--- com.squareup.retrofit2:converter-moshi:2.9.0
        """;

    assertEquals(
        "The project's installed version of retrofit (./gradlew -q :app:dependencies"
            + " --configuration releaseRuntimeClasspath | grep retrofit):"
            + " com.squareup.retrofit2:retrofit 2.9.0, com.squareup.retrofit2:converter-moshi 2.9.0.",
        said(
            "./gradlew -q :app:dependencies --configuration releaseRuntimeClasspath | grep retrofit",
            output));
    assertEquals(
        "The project's installed version of okhttp (./gradlew dependencies | grep -i okhttp):"
            + " com.squareup.okhttp3:okhttp 4.12.0.",
        said("./gradlew dependencies | grep -i okhttp", output));
  }

  @Test
  void aFilterThatIsNotOneNameOverAFullDependencyListing_isNotRestated() {
    String output = "+--- com.squareup.retrofit2:retrofit:2.9.0\n";
    assertTrue(PackageVersions.of("./gradlew dependencies | grep -v retrofit", output).isEmpty());
    assertTrue(PackageVersions.of("./gradlew dependencies | grep -c retrofit", output).isEmpty());
    assertTrue(PackageVersions.of("./gradlew dependencies | grep 'retro.*'", output).isEmpty());
    assertTrue(PackageVersions.of("cat deps.txt | grep retrofit", output).isEmpty());
    assertTrue(
        PackageVersions.of("./gradlew dependencies | grep retrofit | head -1", output).isEmpty());
    assertTrue(PackageVersions.of("pnpm why", "sharp 0.32.6").isEmpty());
    assertTrue(PackageVersions.of("pnpm why sharp", "nothing depends on it").isEmpty());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "pip list --format=freeze|torch==2.3.1",
        "npm install react|added 1 package",
        "pnpm outdated > out.txt|Package Current Latest",
        "npm outdated|everything is up to date",
        "pip list --format=json|[{\"name\": \"torch\", \"version\": \"2.3.1\"}]",
        "npm|Package Current Latest"
      })
  void anythingButAListingOnItsOwn_isNotRestated(String command, String output) {
    assertTrue(PackageVersions.of(command, output).isEmpty(), command);
  }

  @Test
  void aRedirectionOfStandardError_stillCountsAsTheListingOnItsOwn() {
    assertEquals(
        "Installed versions of the project's packages (npm ls): react 18.2.0.",
        said("npm ls 2>/dev/null", "shop@1.0.0 /x\n└── react@18.2.0\n"));
  }

  @Test
  void aRowTheSanitizerTouched_isLeftOut() {
    String output =
        "Package Version\n------- -------\nacme-[redacted:token] 1.0.0\nrequests 2.31.0\n";

    assertEquals(
        "Installed versions of the project's packages (pip list): requests 2.31.0.",
        said("pip list", output));
  }

  @Test
  void aLongOrHostileLine_givesNothing() {
    for (String line :
        List.of(
            "a".repeat(16_000), "a:".repeat(8_000), "sharp".repeat(3_000), "1.".repeat(8_000))) {
      assertTrue(PackageVersions.of("pnpm why sharp", line).isEmpty());
      assertTrue(PackageVersions.of("./gradlew dependencies | grep a", line).isEmpty());
    }
    String words = ("sharp@x " + "a".repeat(40) + " ").repeat(40);
    assertTrue(PackageVersions.of("pnpm why sharp", words).isEmpty());
  }

  @Test
  void aHugeListing_restatesABoundedNumberOfPackages() {
    String output =
        IntStream.range(0, 200_000)
            .mapToObj(i -> "pkg" + i + "==1.0." + i)
            .collect(Collectors.joining("\n"));

    Optional<ProjectSettings.Found> found = PackageVersions.of("pip freeze", output);

    String content = found.orElseThrow().content();
    assertEquals(PackageVersions.MAX_PACKAGES, content.split(", ").length, content);
    assertTrue(content.contains("pkg0 1.0.0") && !content.contains("pkg24 "), content);
  }

  @Test
  void aHostileTable_givesNothingItCannotRead() {
    assertTrue(PackageVersions.of("pnpm outdated", "│".repeat(100_000)).isEmpty());
    assertTrue(
        PackageVersions.of("npm outdated", "Package Current\n" + "x".repeat(10_000_000)).isEmpty());
    assertTrue(PackageVersions.of("npm outdated", "Package Wanted\nreact 18.2.0\n").isEmpty());
  }
}
