package dev.memhook.benchmarks.capture;

import java.util.Random;

/**
 * The words of the made-up Java projects that {@link AgentEvents} writes about: modules, class
 * names built from a noun and a role, method names and compiler errors, each drawn with one call to
 * the stream's shared {@link Random}.
 *
 * <p>Not thread-safe; it belongs to one generator.
 */
final class CodeVocabulary {

  private static final String[] MODULES = {"core", "api", "web", "storage", "client", "batch"};
  private static final String[] NOUNS = {
    "Order",
    "Invoice",
    "Payment",
    "Session",
    "Token",
    "Cache",
    "Retry",
    "Schedule",
    "Report",
    "Account",
    "Ledger",
    "Refund",
    "Webhook",
    "Tenant",
    "Quota",
    "Export"
  };
  private static final String[] ROLES = {
    "Service",
    "Repository",
    "Controller",
    "Mapper",
    "Validator",
    "Handler",
    "Client",
    "Factory",
    "Parser",
    "Store",
    "Scheduler",
    "Config"
  };
  private static final String[] METHODS = {
    "findById", "applyDiscount", "refreshToken", "parseHeader", "computeTotal", "retryLater",
    "validateInput", "toResponse", "loadSettings", "evictExpired", "mergeLines", "closeQuietly"
  };
  private static final String[] ERRORS = {
    "cannot find symbol",
    "incompatible types: String cannot be converted to long",
    "method does not override or implement a method from a supertype",
    "unreported exception IOException; must be caught or declared to be thrown",
    "variable total might not have been initialized"
  };

  private final Random random;

  CodeVocabulary(Random random) {
    this.random = random;
  }

  /** A class name: a noun and a role, such as {@code OrderService}. */
  String className() {
    return noun() + pick(ROLES);
  }

  /** A domain noun, capitalised, such as {@code Invoice}. */
  String noun() {
    return pick(NOUNS);
  }

  /** A method name, such as {@code findById}. */
  String method() {
    return pick(METHODS);
  }

  /** A build module, such as {@code storage}. */
  String module() {
    return pick(MODULES);
  }

  /** A javac error message. */
  String error() {
    return pick(ERRORS);
  }

  /** {@code s} with its first character in lower case. */
  static String lowerFirst(String s) {
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }
}
