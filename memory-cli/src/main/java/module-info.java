/**
 * The {@code memhook} command. It exports nothing: it is run, not programmed against, and ships as
 * one shaded jar (which leaves this descriptor out and runs on the class path).
 *
 * <p>The "requires-automatic" lint is suppressed here only: Reactor (whose {@code Mono} the MCP
 * server's handlers return) is an automatic module, named by its manifest.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.cli {
  requires dev.memhook.core;
  requires dev.memhook.lucene;
  requires dev.memhook.djl;
  requires com.fasterxml.jackson.databind;
  requires info.picocli;
  requires jdk.httpserver;
  requires java.management;
  requires io.modelcontextprotocol.sdk.mcp;
  requires reactor.core;

  // picocli reads the commands' annotated fields and methods reflectively
  opens dev.memhook.cli to
      info.picocli;
}
