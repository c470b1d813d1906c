package dev.memhook.cli;

import dev.memhook.api.MemoryException;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code memhook} command: look into a Memhook store, search it with an explanation, forget,
 * export and import, check its health, and serve a coding agent's lifecycle hooks. Run it with
 * {@code java -jar memory-cli/target/memhook.jar} or the {@code memory-cli/bin/memhook} launcher;
 * {@code memhook --help} lists the commands and the exit codes ({@link ExitCode}).
 *
 * <p>Commands that only read open the store read-only, so they work while another process has it
 * open; commands that write need it to themselves and say so when another process holds it. When a
 * {@code memhook serve} runs for the store directory, {@code stats}, {@code list}, {@code show},
 * {@code search}, {@code export} and {@code forget} run in it instead, on its open store ({@link
 * RemoteCli}).
 *
 * <p>Not thread-safe: one instance per run.
 */
@Command(
    name = "memhook",
    mixinStandardHelpOptions = true,
    // every command takes --help and --version, as the usage error's hint promises
    scope = CommandLine.ScopeType.INHERIT,
    versionProvider = MemhookCli.Version.class,
    description = "Look into, search, forget, export and import a Memhook memory store.",
    footer = "%n" + ExitCode.HELP,
    subcommands = {
      StatsCommand.class,
      ListCommand.class,
      ShowCommand.class,
      SearchCommand.class,
      ForgetCommand.class,
      ExportCommand.class,
      ImportCommand.class,
      DoctorCommand.class,
      CompactCommand.class,
      HookCommand.class,
      McpCommand.class,
      ServeCommand.class,
      ViewCommand.class,
      InstallCommand.class
    })
public final class MemhookCli implements Runnable {

  private final CliContext context;

  MemhookCli(CliContext context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /** Runs {@code memhook} with {@code args} and exits with its status. */
  public static void main(String[] args) {
    // the bundled model is on the class path: never fetch anything at run time
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
    CliContext context = CliContext.system();
    // before picocli and the store's classes load: a running server may answer for this process
    OptionalInt served = RemoteCli.run(args, context, ServeCommand.version());
    System.exit(served.isPresent() ? served.getAsInt() : run(args, context));
  }

  /** Runs {@code memhook} with {@code args} in {@code context} and returns its exit status. */
  static int run(String[] args, CliContext context) {
    CommandLine cli = new CommandLine(new MemhookCli(context));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.registerConverter(Scope.class, Scope::new);
    cli.registerConverter(MemoryId.class, MemoryId::of);
    cli.setOut(new PrintWriter(context.out(), true));
    cli.setErr(new PrintWriter(context.err(), true));
    cli.setParameterExceptionHandler(
        (e, arguments) -> {
          context.err().println("memhook: " + e.getMessage());
          context.err().println("Try '" + commandPath(e.getCommandLine()) + " --help'.");
          // a hook never fails the agent's step, not even when it is misconfigured
          return e.getCommandLine().getCommand() instanceof HookCommand
              ? ExitCode.OK
              : ExitCode.USAGE;
        });
    cli.setExecutionExceptionHandler((e, commandLine, parsed) -> failed(e, context));
    return cli.execute(args);
  }

  /** With no command: the usage. */
  @Override
  public void run() {
    new CommandLine(this).usage(context.out());
  }

  CliContext context() {
    return context;
  }

  private static int failed(Exception e, CliContext context) {
    if (e instanceof CliException c) {
      context.err().println("memhook: " + c.getMessage());
      return c.exitCode();
    }
    if (e instanceof IllegalArgumentException) {
      context.err().println("memhook: " + e.getMessage());
      return ExitCode.USAGE;
    }
    String what = e instanceof MemoryException ? "" : e.getClass().getSimpleName() + ": ";
    context.err().println("memhook: " + what + e.getMessage());
    return ExitCode.FAILED;
  }

  /** {@code memhook} or {@code memhook list}: the command as typed, one space between words. */
  private static String commandPath(CommandLine c) {
    return c.getCommandSpec().qualifiedName();
  }

  /** The version from the jar's manifest, if packaged. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = MemhookCli.class.getPackage().getImplementationVersion();
      return new String[] {"memhook " + (v == null ? "(development build)" : v)};
    }
  }
}
