package dev.memhook.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * How the harnesses' {@code main} methods read their arguments: each option's value through one
 * reader that names the option when the value is missing or malformed (a {@code key=value} pair's
 * or a positional argument's through the same rules, named by the caller), and, for the harnesses
 * that parse before they run, a usage error printed to {@code System.err} that ends the process
 * with status 2, so a mistyped option never runs with a default the user did not ask for.
 * Stateless.
 */
public final class CommandLine {

  private CommandLine() {}

  /**
   * The value after option {@code args[i - 1]}: {@code args[i]}.
   *
   * @throws IllegalArgumentException naming the option when the arguments end before its value
   */
  public static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  /**
   * The {@linkplain #value value} after option {@code args[i - 1]} as a whole number from 0 to
   * {@link Integer#MAX_VALUE}: a count, a size, a number of milliseconds.
   *
   * @throws IllegalArgumentException naming the option and the value when it is not one
   */
  public static int count(String[] args, int i) {
    return count(args[i - 1], value(args, i));
  }

  /**
   * The {@linkplain #value value} after option {@code args[i - 1]} as a whole number (a seed).
   *
   * @throws IllegalArgumentException naming the option and the value when it is not one
   */
  public static long whole(String[] args, int i) {
    return whole(args[i - 1], value(args, i));
  }

  /**
   * The {@linkplain #value value} after option {@code args[i - 1]} as a finite number.
   *
   * @throws IllegalArgumentException naming the option and the value when it is not one
   */
  public static double number(String[] args, int i) {
    return number(args[i - 1], value(args, i));
  }

  /**
   * {@code text} as a whole number from 0 to {@link Integer#MAX_VALUE}, for a value that is not the
   * next argument after its option: a {@code key=value} pair's, a positional argument's.
   *
   * @param name what the errors call the value: the option or key, or what the positional argument
   *     means
   * @throws IllegalArgumentException naming {@code name} and {@code text} when it is not one
   */
  public static int count(String name, String text) {
    long n = whole(name, text);
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          name + " must be 0 to " + Integer.MAX_VALUE + ", not " + text);
    }
    return (int) n;
  }

  /**
   * {@code text} as a whole number, as {@link #count(String, String)} reads one.
   *
   * @throws IllegalArgumentException naming {@code name} and {@code text} when it is not one
   */
  public static long whole(String name, String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " needs a whole number, not '" + text + "'", e);
    }
  }

  /**
   * {@code text} as a finite number, as {@link #count(String, String)} reads one.
   *
   * @throws IllegalArgumentException naming {@code name} and {@code text} when it is not one
   */
  public static double number(String name, String text) {
    double x;
    try {
      x = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " needs a number, not '" + text + "'", e);
    }
    if (!Double.isFinite(x)) {
      throw new IllegalArgumentException(name + " needs a finite number, not " + text);
    }
    return x;
  }

  /**
   * {@code text} as a flag: {@code true} or {@code false}, in any case. {@link
   * Boolean#parseBoolean} reads anything else as false, so {@code settled=yes} would run unsettled.
   *
   * @throws IllegalArgumentException naming {@code name} and {@code text} when it is neither
   */
  public static boolean flag(String name, String text) {
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(name + " needs true or false, not '" + text + "'");
  }

  /**
   * {@code args} read as {@code key=value} pairs, each key one of {@code keys} (the last of a key
   * given twice wins), in the order given.
   *
   * @throws IllegalArgumentException naming an argument that is not a pair, or a key not among
   *     {@code keys} with the keys there are, so a mistyped key never runs with its default
   */
  public static Map<String, String> pairs(String[] args, Set<String> keys) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("expected key=value, got " + arg);
      }
      if (!keys.contains(kv[0])) {
        throw new IllegalArgumentException(
            "unknown key '" + kv[0] + "'; known: " + String.join(", ", new TreeSet<>(keys)));
      }
      pairs.put(kv[0], kv[1]);
    }
    return pairs;
  }

  /**
   * {@code args} read as {@code --option value} pairs, each option one of {@code known} (the last
   * of an option given twice wins).
   *
   * @throws IllegalArgumentException naming the options there are, when an option is not among them
   *     or has no value
   */
  public static Map<String, String> options(String[] args, List<String> known) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!known.contains(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "expected --option value pairs of " + known + ", got " + String.join(" ", args));
      }
      opts.put(args[i], args[i + 1]);
    }
    return opts;
  }

  /**
   * {@code parse} applied to {@code args}; if it throws an {@link IllegalArgumentException}, its
   * message goes to {@code System.err} and the process exits with status 2 (this never returns
   * then).
   */
  public static <T> T parseOrExit(Function<String[], T> parse, String[] args) {
    try {
      return parse.apply(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      throw new AssertionError("System.exit returned", e);
    }
  }
}
