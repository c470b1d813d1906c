package dev.memhook.cli;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.testkit.FakeChatService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code memhook serve} in process for the viewer's tests, as {@link ServeCommand} assembles it
 * (the hook server with the viewer mounted), over a store holding: {@link TestStore#seed}'s
 * memories (a preference, a fact in two versions, a bug, a forgotten one); a captured session whose
 * consolidation made a preference from one observation; a memory whose title and content are
 * hostile HTML; and one hooked turn's injection receipt.
 */
final class ViewerServer implements AutoCloseable {
  static final String TOKEN = "ef".repeat(32);
  static final String SESSION = "s-view";
  static final String PREFERENCE = "I prefer tabs over spaces in every Java file of this repo.";
  static final String HOSTILE_TITLE = "<script>alert('title')</script>";
  static final String HOSTILE_CONTENT =
      "The deploy note \"><img src=x onerror=\"alert(1)\"> and <script>alert(2)</script> ends"
          + " with <b id=\"injected\">bold</b>.";

  final Path dir;
  final TestStore.Seeded seeded;
  final TestStore.Consolidated consolidated;
  final MemoryService memory;
  final ViewerAccess access;
  final Memory hostile;
  final InjectionReceipt receipt;
  private final InProcessServer running;
  private final MemoryHook hook;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  ViewerServer(Path dir) throws Exception {
    this.dir = dir;
    this.seeded = TestStore.seed(dir);
    this.consolidated = TestStore.consolidate(dir, TestStore.ALICE, SESSION, PREFERENCE);
    ViewerAccess[] mounted = new ViewerAccess[1];
    running =
        InProcessServer.start(
            dir,
            TOKEN,
            err,
            (http, served, log) -> {
              mounted[0] = new ViewerAccess(http.getAddress().getPort(), TOKEN, Clock.systemUTC());
              new ViewerEndpoint(served, mounted[0], "tester", log).mount(http);
            });
    memory = running.memory();
    access = mounted[0];

    hostile =
        memory.remember(
            MemoryDraft.builder(TestStore.BOB, HOSTILE_CONTENT)
                .type(MemoryType.FACT)
                .title(HOSTILE_TITLE)
                .summary(HOSTILE_CONTENT)
                .build());
    if (!hostile.content().contains("<script>") || !hostile.title().contains("<script>")) {
      throw new AssertionError("the store changed the hostile text, the test proves nothing");
    }

    FakeChatService chat = FakeChatService.create();
    hook =
        memory.hookInto(
            chat,
            HookOptions.builder()
                .scopes(List.of(TestStore.ALICE))
                .recallTimeout(Duration.ofSeconds(30))
                .noCapture() // the turn would add an observation to the scope the tests search
                .build());
    chat.queueUser("what is the gateway timeout?");
    chat.send().toCompletableFuture().get(30, TimeUnit.SECONDS);
    if (hook.receipts().isEmpty()) {
      throw new AssertionError("the hooked turn left no receipt");
    }
    receipt = hook.receipts().get(0);
  }

  int port() {
    return running.server().port();
  }

  String base() {
    return "http://127.0.0.1:" + port();
  }

  /** What the server logged, for a failure's message. */
  String log() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    try {
      hook.close();
    } finally {
      running.close();
    }
  }
}
