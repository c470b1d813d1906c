package dev.memhook.cli;

import java.io.Console;

/**
 * Where a command asks the user to confirm: the process's console, or none when standard input or
 * output is not a terminal (a pipe, a script, a coding agent). Tests supply their own.
 */
interface Terminal {

  /** Whether there is a person to ask. */
  boolean interactive();

  /**
   * Shows {@code prompt} and reads one line; null at end of input.
   *
   * @throws IllegalStateException if not {@link #interactive()}
   */
  String readLine(String prompt);

  /** No terminal: nobody to ask. */
  Terminal NONE =
      new Terminal() {
        @Override
        public boolean interactive() {
          return false;
        }

        @Override
        public String readLine(String prompt) {
          throw new IllegalStateException("no terminal to ask on");
        }
      };

  /** The process's console, or {@link #NONE} if it has none. */
  static Terminal system() {
    Console console = System.console();
    if (console == null) {
      return NONE;
    }
    return new Terminal() {
      @Override
      public boolean interactive() {
        return true;
      }

      @Override
      public String readLine(String prompt) {
        return console.readLine("%s", prompt);
      }
    };
  }
}
