package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentReportsTest {

  private static final String ARTISAN_ABOUT =
      """
        Environment .................................................................
        Application Name ..................................................... TenantDesk
        Laravel Version .......................................................... 11.9.2
        PHP Version ............................................................... 8.3.7
        Debug Mode .............................................................. ENABLED

        Horizon .....................................................................
        Status ................................................................... Running
        Version ................................................................... 5.24.5
      """;

  @Test
  void aReportsVersionLines_areStated_aBareVersionNamedByItsSection() {
    ProjectSettings.Found found =
        EnvironmentReports.of("php artisan about", ARTISAN_ABOUT).orElseThrow();

    assertEquals(
        "Installed versions (php artisan about): Laravel 11.9.2, PHP 8.3.7, Horizon 5.24.5.",
        found.content());
    assertEquals("the installed versions, php artisan about", found.title());
  }

  @Test
  void colonsAndRunsOfSpaces_separateKeysFromValues_asDotnetAndRailsPrintThem() {
    String dotnet =
        ".NET SDK:\n Version:           8.0.303\n Commit:            29ab8e3268\n\n"
            + "Host:\n  Version:      8.0.7\n  Architecture: x64\n";
    assertEquals(
        "Installed versions (dotnet --info): .NET SDK 8.0.303, Host 8.0.7.",
        EnvironmentReports.of("dotnet --info", dotnet).orElseThrow().content());
    String rails =
        "About your application's environment\n"
            + "Rails version             7.1.3\n"
            + "Ruby version              ruby 3.3.0 (2023-12-25 revision 5124f9ac75) [x86_64-linux]\n";
    assertEquals(
        "Installed versions (bin/rails about): Rails 7.1.3, Ruby 3.3.0.",
        EnvironmentReports.of("bin/rails about", rails).orElseThrow().content());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "php artisan about | grep Version",
        "php artisan config:clear && php artisan about",
        "cat about",
        "php artisan migrate"
      })
  void aCommandThatIsNoReportOnItsOwn_givesNothing(String command) {
    assertTrue(EnvironmentReports.of(command, ARTISAN_ABOUT).isEmpty(), command);
  }

  @Test
  void aProgramsOwnReport_statesTheVersionsItsItemsName() {
    String doctor =
        "[✓] Flutter (Channel stable, 3.22.2, on macOS 14.5 23F79 darwin-arm64)\n"
            + "    • Flutter version 3.22.2 on channel stable at /Users/k/fvm/versions/3.22.2\n"
            + "    • Framework revision 761747bfc5 (4 weeks ago), 2024-06-05 22:15:13 +0200\n"
            + "    • Dart version 3.4.3\n"
            + "    • DevTools version 2.34.3\n"
            + "[!] Android toolchain - develop for Android devices (Android SDK version 34.0.0)\n"
            + "    • Java version OpenJDK Runtime Environment (build 17.0.10+0-17.0.10b1087.21)\n"
            + "[✓] Xcode - develop for iOS and macOS (Xcode 15.4)\n"
            + "    • Build 15F31d\n"
            + "[✓] Android Studio (version 2023.3)\n";
    String rustup =
        "installed toolchains\n--------------------\n\nstable-aarch64-apple-darwin (default)\n\n"
            + "active toolchain\n----------------\n\nstable-aarch64-apple-darwin (default)\n"
            + "rustc 1.79.0 (129f3b996 2024-06-10)\n";

    assertEquals(
        "Installed versions (flutter doctor -v): Flutter 3.22.2, Dart 3.4.3, DevTools 2.34.3,"
            + " Android SDK 34.0.0, Xcode 15.4, Android Studio 2023.3.",
        EnvironmentReports.of("flutter doctor -v", doctor).orElseThrow().content());
    assertEquals(
        "Installed versions (rustup show): rustc 1.79.0.",
        EnvironmentReports.of("rustup show", rustup).orElseThrow().content());
    assertTrue(
        EnvironmentReports.of("git show", "rustc 1.79.0 (129f3b996 2024-06-10)\n").isEmpty(),
        "show is a report of rustup's only");
  }

  @Test
  void aReportNamingNoVersion_orOnlyRedactedLines_givesNothing() {
    assertTrue(EnvironmentReports.of("docker info", "Containers: 3\n Running: 1\n").isEmpty());
    assertTrue(
        EnvironmentReports.of("docker info", "Server Version: [redacted:token] 24.0.7\n")
            .isEmpty());
  }
}
