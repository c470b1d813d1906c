package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.MemoryId;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The viewer's access and header rules over plain HTTP, without a browser, so that they are checked
 * where Chromium is not installed: the login code, the cookie, the {@code Host} check, the forget
 * POST's {@code Origin} and CSRF token, the security headers, and hostile text escaped.
 */
class ViewerHttpTest {
  @TempDir static Path dir;
  private static ViewerServer viewer;

  @BeforeAll
  static void start() throws Exception {
    viewer = new ViewerServer(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    viewer.close();
  }

  private static String host() {
    return "127.0.0.1:" + viewer.port();
  }

  /** Logs in with a new code and returns the cookie header value that names the session. */
  private static String login() throws Exception {
    String url = viewer.access.loginUrl();
    RawHttp.Response r =
        RawHttp.send(
            viewer.port(),
            "GET",
            URI.create(url).getRawPath() + "?" + URI.create(url).getRawQuery(),
            null,
            "Host",
            host());
    assertEquals(303, r.status(), r.body());
    String setCookie = r.header("Set-Cookie");
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  private static RawHttp.Response get(String target, String cookie) throws Exception {
    return RawHttp.send(viewer.port(), "GET", target, null, "Host", host(), "Cookie", cookie);
  }

  private static void assertSecurityHeaders(RawHttp.Response r) {
    assertEquals("default-src 'self'", r.header("Content-Security-Policy"));
    assertEquals("DENY", r.header("X-Frame-Options"));
    assertEquals("no-referrer", r.header("Referrer-Policy"));
    assertEquals("nosniff", r.header("X-Content-Type-Options"));
  }

  @Test
  void theLoginCode_setsAStrictHttpOnlyCookie_redirectsWithoutTheCode_andWorksOnce()
      throws Exception {
    URI url = URI.create(viewer.access.loginUrl());
    assertEquals("127.0.0.1", url.getHost());
    assertEquals(viewer.port(), url.getPort());
    String target = url.getRawPath() + "?" + url.getRawQuery();
    RawHttp.Response r = RawHttp.send(viewer.port(), "GET", target, null, "Host", host());
    assertEquals(303, r.status());
    assertEquals("/view/", r.header("Location"), "the code leaves the address bar");
    String cookie = r.header("Set-Cookie");
    assertTrue(cookie.startsWith("memhook_view_" + viewer.port() + "="), cookie);
    assertTrue(cookie.contains("; HttpOnly"), cookie);
    assertTrue(cookie.contains("; SameSite=Strict"), cookie);
    assertTrue(cookie.contains("; Path=/view"), cookie);
    assertSecurityHeaders(r);

    RawHttp.Response again = RawHttp.send(viewer.port(), "GET", target, null, "Host", host());
    assertEquals(401, again.status(), "a code works once");
    assertEquals(null, again.header("Set-Cookie"));

    RawHttp.Response page = get("/view/", cookie.substring(0, cookie.indexOf(';')));
    assertEquals(200, page.status(), page.body());
    assertTrue(page.body().contains("<h1>Sessions</h1>"), page.body());
    assertSecurityHeaders(page);
    assertEquals("no-store", page.header("Cache-Control"));
  }

  @Test
  void aLoginCode_expiresAfterItsLifetime() {
    MutableClock clock = new MutableClock();
    ViewerAccess access = new ViewerAccess(7373, ViewerServer.TOKEN, clock);
    String code = URI.create(access.loginUrl()).getRawQuery().substring("token=".length());
    clock.now = clock.now.plus(ViewerAccess.LOGIN_CODE_LIFETIME);
    assertTrue(access.login(code).isEmpty(), "an expired code opens nothing");
    String fresh = URI.create(access.loginUrl()).getRawQuery().substring("token=".length());
    assertTrue(access.login(fresh).isPresent());
    assertTrue(access.login("0".repeat(64)).isEmpty(), "an unknown code opens nothing");
  }

  @Test
  void everyPage_withoutTheCookie_orWithAWrongOne_isRefused401() throws Exception {
    for (String target :
        List.of(
            "/view/",
            "/view/memories",
            "/view/viewer.css",
            "/view/search?q=x",
            "/view/receipts",
            "/view/memory?id=" + viewer.seeded.tabs().id().value())) {
      RawHttp.Response none = RawHttp.send(viewer.port(), "GET", target, null, "Host", host());
      assertEquals(401, none.status(), target);
      assertSecurityHeaders(none);
      RawHttp.Response wrong = get(target, "memhook_view_" + viewer.port() + "=" + "1".repeat(64));
      assertEquals(401, wrong.status(), target);
      assertFalse(wrong.body().contains("Alice"), "nothing of the store shows: " + wrong.body());
    }
  }

  @Test
  void aRequestNamingAnotherHost_isRefused403_evenWithAValidCookie() throws Exception {
    String cookie = login();
    for (String badHost :
        List.of("rebound.example:" + viewer.port(), "127.0.0.1:1", "localhost", "127.0.0.1")) {
      RawHttp.Response r =
          RawHttp.send(viewer.port(), "GET", "/view/", null, "Host", badHost, "Cookie", cookie);
      assertEquals(403, r.status(), badHost);
      assertSecurityHeaders(r);
    }
    RawHttp.Response noHost = RawHttp.send(viewer.port(), "GET", "/view/", null, "Cookie", cookie);
    assertEquals(403, noHost.status());
    String url = viewer.access.loginUrl();
    RawHttp.Response login =
        RawHttp.send(
            viewer.port(),
            "GET",
            url.substring(url.indexOf("/view/")),
            null,
            "Host",
            "rebound.example:" + viewer.port());
    assertEquals(403, login.status(), "a login through another name is refused too");
    RawHttp.Response localhost =
        RawHttp.send(
            viewer.port(),
            "GET",
            "/view/",
            null,
            "Host",
            "localhost:" + viewer.port(),
            "Cookie",
            cookie);
    assertEquals(200, localhost.status(), "localhost:PORT is this server");
  }

  @Test
  void aLoginUrl_isHandedOut_onlyForTheBearerToken() throws Exception {
    RawHttp.Response without =
        RawHttp.send(viewer.port(), "POST", "/view/login-url", "", "Host", host());
    assertEquals(401, without.status());
    RawHttp.Response wrong =
        RawHttp.send(
            viewer.port(),
            "POST",
            "/view/login-url",
            "",
            "Host",
            host(),
            "Authorization",
            "Bearer " + "00".repeat(32));
    assertEquals(401, wrong.status());
    RawHttp.Response right =
        RawHttp.send(
            viewer.port(),
            "POST",
            "/view/login-url",
            "",
            "Host",
            host(),
            "Authorization",
            "Bearer " + ViewerServer.TOKEN);
    assertEquals(200, right.status(), right.body());
    JsonNode n = JsonRecords.MAPPER.readTree(right.body());
    URI url = URI.create(n.get("url").asText());
    RawHttp.Response used =
        RawHttp.send(
            viewer.port(), "GET", url.getRawPath() + "?" + url.getRawQuery(), null, "Host", host());
    assertEquals(303, used.status());
  }

  @Test
  void theForgetPost_needsTheSameOrigin_andTheCsrfToken_elseForgetsNothing() throws Exception {
    String cookie = login();
    MemoryId id = viewer.seeded.bobBug().id();
    RawHttp.Response confirm = get("/view/forget?id=" + id.value(), cookie);
    assertEquals(200, confirm.status(), confirm.body());
    assertTrue(viewer.memory.get(id).isPresent(), "the confirmation forgets nothing");
    assertEquals("default-src 'self'", confirm.header("Content-Security-Policy"));
    assertEquals(
        "same-origin",
        confirm.header("Referrer-Policy"),
        "under no-referrer a browser would post the form with Origin: null");
    Matcher m = Pattern.compile("name=\"csrf\" value=\"([0-9a-f]{64})\"").matcher(confirm.body());
    assertTrue(m.find(), confirm.body());
    String csrf = m.group(1);
    String origin = "http://" + host();
    String form = "id=" + id.value() + "&mode=with_sources&csrf=";

    List<RawHttp.Response> refused =
        List.of(
            post(form + csrf, cookie, null),
            post(form + csrf, cookie, "http://rebound.example:" + viewer.port()),
            post(form + csrf, cookie, "null"),
            post(form + "1".repeat(64), cookie, origin),
            post(form, cookie, origin),
            post(form + csrf, login(), origin));
    for (RawHttp.Response r : refused) {
      assertEquals(403, r.status(), r.body());
      assertSecurityHeaders(r);
    }
    RawHttp.Response noCookie =
        RawHttp.send(
            viewer.port(), "POST", "/view/forget", form + csrf, "Host", host(), "Origin", origin);
    assertEquals(401, noCookie.status());
    assertTrue(viewer.memory.get(id).isPresent(), "nothing refused was forgotten");

    RawHttp.Response done = post(form + csrf, cookie, origin);
    assertEquals(200, done.status(), done.body());
    assertTrue(done.body().contains(id.value()), done.body());
    assertTrue(viewer.memory.get(id).isEmpty(), "the memory is forgotten");
    assertEquals(
        1,
        viewer.memory.maintenance().forgotten(TestStore.BOB).stream()
            .filter(
                r ->
                    r.id().equals(id)
                        && r.actor().equals("tester")
                        && r.reason().equals(ViewerForget.REASON))
            .count(),
        "with its audit record");
  }

  private static RawHttp.Response post(String form, String cookie, String origin) throws Exception {
    return origin == null
        ? RawHttp.send(
            viewer.port(), "POST", "/view/forget", form, "Host", host(), "Cookie", cookie)
        : RawHttp.send(
            viewer.port(),
            "POST",
            "/view/forget",
            form,
            "Host",
            host(),
            "Cookie",
            cookie,
            "Origin",
            origin);
  }

  @Test
  void hostileMemoryText_isEscaped_onEveryPageThatShowsIt() throws Exception {
    String cookie = login();
    String id = viewer.hostile.id().value();
    for (String target :
        List.of(
            "/view/memory?id=" + id,
            "/view/memories?scope=acme%2Fbob",
            "/view/search?scope=acme%2Fbob&q="
                + URLEncoder.encode("deploy note", StandardCharsets.UTF_8),
            "/view/forget?id=" + id)) {
      RawHttp.Response r = get(target, cookie);
      assertEquals(200, r.status(), target + ": " + r.body());
      String body = r.body();
      assertTrue(
          body.contains("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"),
          target + ": " + body);
      assertFalse(body.contains("<script"), target + ": " + body);
      assertFalse(body.contains("<img"), target + ": " + body);
      assertFalse(body.contains("<b id"), target + ": " + body);
    }
    RawHttp.Response page = get("/view/memory?id=" + id, cookie);
    assertTrue(
        page.body().contains("&quot;&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"),
        page.body());
    RawHttp.Response badId =
        get("/view/memory?id=" + URLEncoder.encode("<script>", StandardCharsets.UTF_8), cookie);
    assertFalse(badId.body().contains("<script>"), "a request's own text is escaped too");
    assertNotNull(badId.header("Content-Security-Policy"));
  }

  /** A clock the test moves. */
  private static final class MutableClock extends Clock {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
