package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook view}: asks the {@code memhook serve} of the store directory for a one-time login
 * URL of its viewer ({@code POST /view/login-url} with the token of {@value
 * ServeFiles#RUNNING_FILE}) and prints it; opening it in a browser logs that browser in. The URL
 * works once, within {@link ViewerAccess#LOGIN_CODE_LIFETIME}.
 */
@Command(
    name = "view",
    description =
        "Print a one-time URL that logs a browser into the viewer of the memhook serve running"
            + " for the store directory: sessions, memories, search with explanations, injection"
            + " receipts, forget. The URL works once, within 10 minutes.")
final class ViewCommand implements Callable<Integer> {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Override
  public Integer call() throws IOException, InterruptedException {
    CliContext context = root.context();
    Path dir = store.directory(context);
    Optional<ServeFiles.Running> running = new ServeFiles(dir).running();
    if (running.isEmpty()) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "no memhook serve runs for "
              + dir
              + ": the viewer is served by it; start one with memhook serve --detach --dir "
              + dir);
    }
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + running.get().port() + "/view/login-url"))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + running.get().token())
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    HttpResponse<String> response;
    try {
      response =
          HttpClient.newBuilder()
              .connectTimeout(TIMEOUT)
              .build()
              .send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new CliException(
          ExitCode.FAILED,
          "memhook serve (pid "
              + running.get().pid()
              + ") does not answer on port "
              + running.get().port()
              + ": "
              + e,
          e);
    }
    JsonNode n = JsonRecords.MAPPER.readTree(response.body());
    if (response.statusCode() != 200 || n == null || !n.path("url").isTextual()) {
      throw new CliException(
          ExitCode.FAILED,
          "memhook serve refused a login URL (HTTP "
              + response.statusCode()
              + "): "
              + response.body());
    }
    String url = n.get("url").asText();
    if (store.json) {
      ObjectNode out = JsonRecords.MAPPER.createObjectNode();
      out.put("url", url);
      JsonRecords.print(context.out(), out);
    } else {
      context.out().println(url);
      context.err().println("memhook view: open it in a browser on this machine; it works once");
    }
    return ExitCode.OK;
  }
}
