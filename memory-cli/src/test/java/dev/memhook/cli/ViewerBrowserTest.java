package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The viewer in a real browser: Chromium, headless, driven through the system's chromedriver by
 * Selenium. Both are taken from the {@code PATH} and named to Selenium explicitly, so Selenium
 * Manager has nothing to look up (and the build sets {@code SE_OFFLINE} so that it could not
 * download if it ran); without them every test is skipped with what to install. One browser and one
 * server for the class.
 */
class ViewerBrowserTest {
  @TempDir static Path dir;
  @TempDir static Path profile;
  private static ViewerServer viewer;
  private static ChromeDriver browser;

  /** Why the browser tests cannot run here, or null when they can. */
  private static String missing;

  @BeforeAll
  static void start() throws Exception {
    Optional<Path> chromium = onPath("chromium").or(() -> onPath("chromium-browser"));
    Optional<Path> driver = onPath("chromedriver");
    if (chromium.isEmpty() || driver.isEmpty()) {
      // each test is skipped with this message (an assumption here would hide it: surefire
      // reports a class aborted in @BeforeAll as no tests at all)
      missing =
          "the viewer's browser tests need chromium and chromedriver on the PATH; on Debian or"
              + " Ubuntu: apt-get install chromium chromium-driver";
      return;
    }
    assertEquals(
        "true",
        System.getenv("SE_OFFLINE"),
        "the build runs these tests with SE_OFFLINE=true, so Selenium Manager cannot download");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(driver.get().toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--user-data-dir=" + profile,
        // a name of another site that resolves to 127.0.0.1, as after DNS rebinding
        "--host-resolver-rules=MAP rebound.test 127.0.0.1");
    viewer = new ViewerServer(dir);
    browser = new ChromeDriver(service, options);
    // the driver Selenium started is the one named above (the PATH's entry may be a link to it)
    assertEquals(
        driver.get().toRealPath(),
        Path.of(String.valueOf(service.getExecutable())).toRealPath(),
        "Selenium started another chromedriver than the one named");
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (browser != null) {
        browser.quit();
      }
    } finally {
      if (viewer != null) {
        viewer.close();
      }
    }
  }

  @BeforeEach
  void login() {
    Assumptions.assumeTrue(missing == null, missing);
    browser.manage().deleteAllCookies();
    browser.get(viewer.access.loginUrl());
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Arrays.stream(path.split(File.pathSeparator))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, name))
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
        .findFirst();
  }

  private static String h1() {
    return browser.findElement(By.tagName("h1")).getText();
  }

  @Test
  void theLoginUrl_setsTheCookie_dropsTheCode_andEveryPageLoads() {
    assertEquals(viewer.base() + "/view/", browser.getCurrentUrl(), "no code in the address");
    Cookie c = browser.manage().getCookieNamed("memhook_view_" + viewer.port());
    assertNotNull(c, "the session cookie");
    assertTrue(c.isHttpOnly());
    assertEquals("Strict", c.getSameSite());
    assertEquals("/view", c.getPath());
    assertEquals("Sessions", h1());
    // the style sheet loaded under the page's policy
    assertEquals(
        "rgba(35, 49, 61, 1)",
        browser.findElement(By.tagName("header")).getCssValue("background-color"));
    for (String[] page :
        List.of(
            new String[] {"Memories", "Memories"},
            new String[] {"Search", "Search"},
            new String[] {"Receipts", "Injection receipts"},
            new String[] {"Sessions", "Sessions"})) {
      navigate(browser.findElement(By.linkText(page[0])));
      assertEquals(page[1], h1(), browser.getPageSource());
    }
  }

  @Test
  void withoutTheCookie_thePagesAreRefused() {
    browser.manage().deleteAllCookies();
    browser.get(viewer.base() + "/view/memories");
    assertTrue(browser.getPageSource().contains("not logged in"), browser.getPageSource());
    assertTrue(browser.findElements(By.cssSelector("table.memories")).isEmpty());
  }

  @Test
  void aPageReachedByAnotherName_isRefused() {
    browser.get("http://rebound.test:" + viewer.port() + "/view/");
    assertTrue(
        browser.getPageSource().contains("answers to 127.0.0.1 or localhost"),
        browser.getPageSource());
    browser.get("http://localhost:" + viewer.port() + "/view/");
    assertTrue(
        browser.getPageSource().contains("not logged in"),
        "localhost is this server, but" + " the cookie was set for 127.0.0.1");
  }

  @Test
  void theTimeline_showsASessionWithItsObservations() {
    navigate(browser.findElement(By.linkText(ViewerServer.SESSION)));
    assertEquals("Session " + ViewerServer.SESSION, h1());
    List<WebElement> observations = browser.findElements(By.cssSelector("li.observation"));
    assertEquals(1, observations.size(), browser.getPageSource());
    assertTrue(observations.get(0).getText().contains(ViewerServer.PREFERENCE));
    navigate(observations.get(0).findElement(By.tagName("a")));
    assertTrue(
        browser
            .findElement(By.cssSelector("pre.content"))
            .getText()
            .contains(ViewerServer.PREFERENCE));
    assertTrue(
        browser.getPageSource().contains(viewer.consolidated.source().id().value()),
        "the observation's own page");
  }

  @Test
  void memoriesByScopeAndType_showVersionsAndSources() {
    navigate(browser.findElement(By.linkText("Memories")));
    navigate(browser.findElement(By.partialLinkText("acme/alice (")));
    navigate(browser.findElement(By.partialLinkText("fact (")));
    List<WebElement> rows = browser.findElements(By.cssSelector("tr.memory"));
    assertEquals(1, rows.size(), "the latest fact of alice only: " + browser.getPageSource());
    assertTrue(rows.get(0).getText().contains("Gateway timeout"));
    assertTrue(rows.get(0).getText().contains(" 2 "), rows.get(0).getText());
    navigate(rows.get(0).findElement(By.tagName("a")));
    assertTrue(browser.findElement(By.cssSelector("pre.content")).getText().contains("45 seconds"));
    List<WebElement> versions = browser.findElements(By.cssSelector("li.version"));
    assertEquals(1, versions.size());
    assertTrue(versions.get(0).getText().contains("version 1"));
    assertTrue(versions.get(0).getText().contains("30 seconds"));

    navigate(browser.findElement(By.linkText("Memories")));
    navigate(browser.findElement(By.partialLinkText("acme/alice (")));
    navigate(browser.findElement(By.partialLinkText("preference (")));
    navigate(browser.findElement(By.linkText(viewer.consolidated.memory().title())));
    List<WebElement> sources = browser.findElements(By.cssSelector("ul.sources li"));
    assertEquals(1, sources.size(), browser.getPageSource());
    assertTrue(sources.get(0).getText().contains(viewer.consolidated.source().id().value()));
  }

  @Test
  void search_showsTheExplanationTheCliPrints() {
    navigate(browser.findElement(By.linkText("Search")));
    browser.findElement(By.name("q")).sendKeys("gateway timeout");
    WebElement scope = browser.findElement(By.name("scope"));
    scope.clear();
    scope.sendKeys("acme/alice");
    navigate(browser.findElement(By.cssSelector("form.search button")));
    String shown = browser.findElement(By.cssSelector("pre.explanation")).getText();
    assertTrue(browser.getPageSource().contains(viewer.seeded.timeoutV2().id().value()));

    Cli.Result cli =
        new Cli(dir).run("search", "--explain", "--scope", "acme/alice", "gateway", "timeout");
    assertEquals(ExitCode.OK, cli.code(), cli.err());
    String printed = cli.out().substring(cli.out().indexOf("\n\n") + 2);
    assertTrue(printed.startsWith("fusion: "), printed);
    assertTrue(shown.contains("took text "), "the timings are shown too: " + shown);
    assertEquals(withoutTimings(printed), withoutTimings(shown));
  }

  /** The explanation without its timing lines, which differ from one recall to the next. */
  private static String withoutTimings(String explanation) {
    return explanation
        .lines()
        .filter(l -> !l.startsWith("took "))
        .reduce("", (a, b) -> a + b + "\n");
  }

  @Test
  void receipts_showTheHookedTurn() {
    navigate(browser.findElement(By.linkText("Receipts")));
    List<WebElement> receipts = browser.findElements(By.cssSelector("section.receipt"));
    assertEquals(1, receipts.size(), browser.getPageSource());
    String text = receipts.get(0).getText();
    assertTrue(text.contains(viewer.receipt.id()), text);
    assertFalse(viewer.receipt.injectedIds().isEmpty(), "the turn injected something");
    for (MemoryId id : viewer.receipt.injectedIds()) {
      assertTrue(
          receipts.get(0).findElements(By.cssSelector("a.injected")).stream()
              .anyMatch(a -> a.getText().equals(id.value())),
          id.value());
    }
    for (var c : viewer.receipt.candidates()) {
      assertTrue(text.contains(c.id().value() + " " + JsonRecords.lower(c.decision())), text);
    }
  }

  @Test
  void forget_asksFirst_thenForgetsTheMemoryAndItsSources_andTheCliAgrees() {
    MemoryId memory = viewer.consolidated.memory().id();
    MemoryId source = viewer.consolidated.source().id();
    browser.get(viewer.base() + "/view/memory?id=" + memory.value());
    navigate(browser.findElement(By.partialLinkText("Forget this memory")));
    assertEquals("Forget this memory?", h1(), browser.getPageSource());
    assertTrue(
        browser.findElement(By.cssSelector("ul.sources")).getText().contains(source.value()));
    assertTrue(viewer.memory.get(memory).isPresent(), "asking forgets nothing");

    browser.findElement(By.cssSelector("input[value=with_sources]")).click();
    navigate(browser.findElement(By.cssSelector("form.forget button")));
    assertEquals("Forgotten", h1(), browser.getPageSource());
    String list = browser.findElement(By.cssSelector("ul.forgotten")).getText();
    assertTrue(list.contains(memory.value()) && list.contains(source.value()), list);
    assertTrue(viewer.memory.get(memory).isEmpty());
    assertTrue(viewer.memory.get(source).isEmpty());

    Cli.Result show = new Cli(dir).run("show", memory.value(), source.value());
    assertEquals(ExitCode.NOT_FOUND, show.code(), show.out());
    assertTrue(
        show.err().contains(memory.value()) && show.err().contains(source.value()), show.err());
  }

  @Test
  void hostileText_rendersAsText_withoutAnAlertOrAnInjectedElement() {
    browser.get(viewer.base() + "/view/memory?id=" + viewer.hostile.id().value());
    assertEquals(ViewerServer.HOSTILE_TITLE, h1());
    assertEquals(
        ViewerServer.HOSTILE_CONTENT, browser.findElement(By.cssSelector("pre.content")).getText());
    assertTrue(browser.findElements(By.tagName("script")).isEmpty());
    assertTrue(browser.findElements(By.tagName("img")).isEmpty());
    assertTrue(browser.findElements(By.id("injected")).isEmpty());
    assertNoAlert();
    browser.get(viewer.base() + "/view/memories?scope=acme%2Fbob");
    assertTrue(browser.findElements(By.tagName("img")).isEmpty());
    assertNoAlert();
  }

  private static void assertNoAlert() {
    try {
      String text = browser.switchTo().alert().getText();
      throw new AssertionError("a script ran and raised an alert: " + text);
    } catch (NoAlertPresentException expected) {
      // nothing ran
    }
  }

  /**
   * Clicks what leaves the page, then waits until the browser has left it: a click can return
   * before the navigation it starts, and a look-up right after would read the old page.
   */
  private void navigate(WebElement target) {
    WebElement page = browser.findElement(By.tagName("html"));
    target.click();
    new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> isGone(page));
  }

  /**
   * Whether {@code element}'s page has been replaced. ChromeDriver reports that as a stale element,
   * or, when it asks about the node while the new document replaces the old one, as an inspector
   * error saying the node does not belong to the document; both mean the old page is gone (the
   * second made a navigation fail about once in a few runs of this class).
   */
  private static boolean isGone(WebElement element) {
    try {
      element.isEnabled();
      return false;
    } catch (StaleElementReferenceException gone) {
      return true;
    } catch (WebDriverException e) {
      if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
        return true;
      }
      throw e;
    }
  }
}
