package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a user reaches the viewer: {@code memhook serve} prints a login URL at start, and {@code
 * memhook view} asks the running server for another; each logs a browser in once.
 */
class ViewCommandTest {
  @TempDir Path dir;

  @Test
  void serveAndView_printLoginUrls_thatEachWorkOnce() throws Exception {
    Cli cli = new Cli(dir);
    Cli.Result detached =
        cli.run(
            "serve", "--detach", "--dir", dir.toString(), "--port", "0", "--embedder", "hashing");
    assertEquals(0, detached.code(), detached.err());
    JsonNode running =
        JsonRecords.MAPPER.readTree(
            Files.readString(dir.resolve(ServeFiles.RUNNING_FILE), StandardCharsets.UTF_8));
    int port = running.get("port").asInt();
    ProcessHandle server = ProcessHandle.of(running.get("pid").asLong()).orElseThrow();
    try {
      String log = Files.readString(dir.resolve("serve.log"), StandardCharsets.UTF_8);
      Matcher printed =
          Pattern.compile("http://127\\.0\\.0\\.1:" + port + "/view/login\\?token=[0-9a-f]{64}")
              .matcher(log);
      assertTrue(printed.find(), log);
      assertLogsInOnce(URI.create(printed.group()));

      Cli.Result view = cli.run("view", "--dir", dir.toString());
      assertEquals(0, view.code(), view.err());
      URI url = URI.create(view.out().strip());
      assertEquals("127.0.0.1", url.getHost());
      assertEquals(port, url.getPort());
      assertLogsInOnce(url);
    } finally {
      Cli.Result stop = cli.run("serve", "stop", "--dir", dir.toString());
      server.destroyForcibly();
      assertEquals(0, stop.code(), stop.err());
    }
  }

  private static void assertLogsInOnce(URI url) throws Exception {
    String target = url.getRawPath() + "?" + url.getRawQuery();
    String host = "127.0.0.1:" + url.getPort();
    RawHttp.Response first = RawHttp.send(url.getPort(), "GET", target, null, "Host", host);
    assertEquals(303, first.status(), first.body());
    String cookie = first.header("Set-Cookie");
    RawHttp.Response page =
        RawHttp.send(
            url.getPort(),
            "GET",
            "/view/",
            null,
            "Host",
            host,
            "Cookie",
            cookie.substring(0, cookie.indexOf(';')));
    assertEquals(200, page.status(), page.body());
    assertEquals(401, RawHttp.send(url.getPort(), "GET", target, null, "Host", host).status());
  }

  @Test
  void view_withoutARunningServer_saysHowToStartOne() {
    Cli.Result r = new Cli(dir).run("view", "--dir", dir.toString());
    assertEquals(ExitCode.STORE_UNAVAILABLE, r.code());
    assertTrue(r.err().contains("no memhook serve runs for"), r.err());
    assertTrue(r.err().contains("memhook serve --detach"), r.err());
  }
}
