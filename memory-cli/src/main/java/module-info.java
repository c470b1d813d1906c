/**
 * The {@code memhook} command. It is run, not programmed against, and ships as one shaded jar
 * (which leaves this descriptor out and runs on the class path); it exports its package only to the
 * benchmarks, which run the command in their own JVM ({@code InProcessMemhook}).
 *
 * <p>The "requires-automatic" lint is suppressed here only: Reactor (whose {@code Mono} the MCP
 * server's handlers return) is an automatic module, named by its manifest. The "module" lint is
 * suppressed because the benchmarks module, the target of the qualified export, is built after this
 * one and javac cannot see it here.
 */
@SuppressWarnings({"requires-automatic", "module"})
module dev.memhook.cli {
  requires dev.memhook.core;
  requires dev.memhook.lucene;
  requires dev.memhook.djl;
  requires com.fasterxml.jackson.databind;
  requires info.picocli;
  requires jdk.httpserver;
  requires java.net.http;
  requires java.management;
  requires io.modelcontextprotocol.sdk.mcp;
  requires reactor.core;

  exports dev.memhook.cli to
      dev.memhook.benchmarks;

  // picocli reads the commands' annotated fields and methods reflectively
  opens dev.memhook.cli to
      info.picocli;
}
