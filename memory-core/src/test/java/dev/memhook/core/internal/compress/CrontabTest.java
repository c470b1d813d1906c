package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which crontab listings are restated, and the words each schedule becomes. */
class CrontabTest {

  private static final String ETL_CRONTAB =
      """
      # m h dom mon dow command
      MAILTO=ops@example.com
      15 3 * * * /opt/etl/run_export.sh >> /var/log/etl/export.log 2>&1
      0 * * * * /opt/etl/rotate_logs.sh
      """;

  @Test
  void aRemoteCrontab_saysWhenEachJobRuns_andWhere() {
    ProjectSettings.Found found = Listings.of("ssh etl-01 crontab -l", ETL_CRONTAB).orElseThrow();

    assertEquals(
        "Scheduled jobs in the crontab of etl-01 (crontab -l): every day at 03:15, at night:"
            + " /opt/etl/run_export.sh >> /var/log/etl/export.log 2>&1 (cron 15 3 * * *); every"
            + " hour, at minute 0: /opt/etl/rotate_logs.sh (cron 0 * * * *).",
        found.content());
    assertEquals("the crontab of etl-01", found.title());
    assertEquals(List.of("cron"), found.subjects());
  }

  @Test
  void theUserAndTheMachine_nameTheCrontab_soALaterListingReplacesIt() {
    assertEquals(
        "the crontab of user deploy on this machine",
        Listings.of("sudo crontab -l -u deploy", ETL_CRONTAB).orElseThrow().title());
    assertEquals(
        "the crontab of etl-01",
        Listings.of("ssh ops@etl-01 'crontab -l'", ETL_CRONTAB).orElseThrow().title());
    assertEquals(
        "the crontab of this machine",
        Listings.of("crontab -l", ETL_CRONTAB).orElseThrow().title());
  }

  @ParameterizedTest(name = "{0} {1} {2} {3} {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        "*    | *    | * | * | *     | every minute",
        "*/5  | *    | * | * | *     | every 5 minutes",
        "0,30 | *    | * | * | *     | every hour, at minute 0 and 30",
        "10   | */6  | * | * | *     | every 6 hours, at minute 10",
        "30   | 14   | * | * | *     | every day at 14:30",
        "0    | 23   | * | * | *     | every day at 23:00, at night",
        "0    | 9,17 | * | * | *     | every day at 09:00 and 17:00",
        "0    | 2    | * | * | 0     | every Sunday at 02:00, at night",
        "45   | 8    | * | * | 1-5   | every Monday to Friday at 08:45",
        "0    | 6    | * | * | mon,Thu | every Monday and Thursday at 06:00",
        "0    | 4    | 1 | * | *     | every month, on day 1 at 04:00, at night",
        "0    | 4    | 1-7 | * | 1   | on the cron schedule 0 4 1-7 * 1",
        "0    | 4    | * | 6 | *     | on the cron schedule 0 4 * 6 *",
        "*/15 | 9-17 | * | * | 1-5   | on the cron schedule */15 9-17 * * 1-5",
        "61   | 3    | * | * | *     | on the cron schedule 61 3 * * *",
        "0    | 25   | * | * | *     | on the cron schedule 0 25 * * *",
        "0    | 4    | 0 | * | *     | on the cron schedule 0 4 0 * *",
        "0    | 4    | * | * | 8     | on the cron schedule 0 4 * * 8",
        "*/0  | *    | * | * | *     | on the cron schedule */0 * * * *"
      })
  void eachSchedule_isSaidInWords_orByItsExpression(
      String minute, String hour, String dom, String month, String dow, String words) {
    assertEquals(words, Crontab.schedule(minute, hour, dom, month, dow));
  }

  @Test
  void specialSchedules_andLinesThatAreNoJobs() {
    assertEquals(
        "every day at 00:00, at night: /usr/local/bin/backup (cron @daily)",
        Crontab.job("@daily /usr/local/bin/backup"));
    assertEquals(
        "at every boot: /srv/app/start.sh (cron @reboot)",
        Crontab.job("@reboot /srv/app/start.sh"));
    assertEquals(
        "every Monday to Friday at 06:00: /opt/x.sh (cron 0 6 * * mon-fri)",
        Crontab.job("0 6 * * mon-fri /opt/x.sh"));
    assertEquals(
        "on the cron schedule 0 4 * jan sun: /opt/y.sh (cron 0 4 * jan sun)",
        Crontab.job("0 4 * jan sun /opt/y.sh"));
    assertEquals(null, Crontab.job("0 4 * january * /opt/y.sh"));
    assertEquals(null, Crontab.job("@sometimes /bin/true"));
    assertEquals(null, Crontab.job("@daily"));
    assertEquals(null, Crontab.job("15 3 * *"));
    assertEquals(null, Crontab.job("15 3 * * * "));
    assertEquals(null, Crontab.job("SHELL /bin/bash is what runs the jobs here"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "crontab -e",
        "crontab -r",
        "crontab jobs.txt",
        "crontab",
        "ssh etl-01 uptime",
        "ssh -p 2222 etl-01 crontab -l",
        "sudo systemctl list-timers",
        "crontab -l | grep etl",
        "crontab -l > backup.txt"
      })
  void otherCommands_areNotRestated(String command) {
    assertEquals(Optional.empty(), Listings.of(command, ETL_CRONTAB));
  }

  @Test
  void anEmptyCrontab_aRedactedJob_andCommentsOnly_giveNothingOrLeaveTheJobOut() {
    assertEquals(Optional.empty(), Listings.of("crontab -l", "no crontab for dev\n"));
    assertEquals(Optional.empty(), Listings.of("crontab -l", "# nothing here\n\n"));
    String withSecret =
        "0 1 * * * curl -H 'Authorization: [redacted:bearer-token]' https://ops/ping\n"
            + "0 2 * * * /opt/backup.sh\n";
    String content = Listings.of("crontab -l", withSecret).orElseThrow().content();
    assertEquals(
        "Scheduled jobs in the crontab of this machine (crontab -l): every day at 02:00, at"
            + " night: /opt/backup.sh (cron 0 2 * * *).",
        content);
  }

  @Test
  void aHugeOrHostileCrontab_isReadBoundedly() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 200_000; i++) {
      many.append(i % 60).append(" 3 * * * /opt/job-").append(i).append(".sh\n");
    }
    String content = Listings.of("crontab -l", many.toString()).orElseThrow().content();
    assertEquals(Listings.MAX_ROWS, content.split("; ").length);

    String longCommand = "5 4 * * * /opt/run.sh " + "x".repeat(5_000_000) + "\n";
    String said = Listings.of("crontab -l", longCommand).orElseThrow().content();
    assertTrue(said.length() < 400, "a job's command is cut: " + said.length());

    String oneHugeField = "*".repeat(3_000_000) + " 3 * * * /opt/a.sh\n";
    assertEquals(Optional.empty(), Listings.of("crontab -l", oneHugeField));
  }
}
