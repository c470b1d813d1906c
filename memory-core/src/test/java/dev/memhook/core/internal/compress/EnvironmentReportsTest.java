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
  void aReportNamingNoVersion_orOnlyRedactedLines_givesNothing() {
    assertTrue(EnvironmentReports.of("docker info", "Containers: 3\n Running: 1\n").isEmpty());
    assertTrue(
        EnvironmentReports.of("docker info", "Server Version: [redacted:token] 24.0.7\n")
            .isEmpty());
  }
}
