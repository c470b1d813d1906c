package dev.memhook.benchmarks;

/**
 * The fixed word lists and sentence templates {@link SyntheticCorpus} draws its text from. A
 * template's {@code %X} keys are filled by {@link CorpusText#fill}. Changing any entry or its order
 * changes every generated corpus, so it requires bumping {@link SyntheticCorpus#GENERATOR_VERSION}.
 */
final class CorpusVocabulary {

  static final String[] NOUNS = {
    "auth",
    "token",
    "session",
    "cache",
    "payment",
    "invoice",
    "order",
    "cart",
    "user",
    "account",
    "queue",
    "worker",
    "retry",
    "backoff",
    "schema",
    "migration",
    "index",
    "search",
    "report",
    "export",
    "import",
    "upload",
    "image",
    "thumbnail",
    "email",
    "notification",
    "webhook",
    "audit",
    "billing",
    "refund",
    "ledger",
    "inventory",
    "shipment",
    "pricing",
    "discount",
    "coupon",
    "tenant",
    "config",
    "feature",
    "flag",
    "metric",
    "trace",
    "log",
    "alert",
    "deploy",
    "build",
    "release",
    "parser",
    "lexer",
    "router",
    "handler",
    "client",
    "server",
    "proxy",
    "gateway",
    "limiter",
    "scheduler",
    "job",
    "batch",
    "stream",
    "consumer",
    "producer",
    "topic",
    "partition",
    "offset",
    "snapshot",
    "backup",
    "replica",
    "shard",
    "lock",
    "lease",
    "quota",
    "profile",
    "avatar",
    "calendar",
    "event",
    "timezone",
    "locale",
    "currency",
    "tax",
    "checkout",
    "wallet",
    "ticket"
  };
  static final String[] VERBS = {
    "parse", "validate", "load", "save", "fetch", "resolve", "compute", "render", "send", "retry",
    "refresh", "rotate", "merge", "split", "flush", "encode", "decode", "sign", "verify", "expire"
  };
  static final String[] SERVICES = {
    "auth-service", "payments-api", "order-svc", "search-indexer", "billing-worker", "gateway",
    "notifier", "inventory-api", "reporting", "checkout-web", "ledger-core", "media-pipeline"
  };
  static final String[] ERROR_PREFIXES = {"ERR_", "E", "HTTP ", "ORA-", "SQLSTATE ", "EX"};
  static final String[] ERROR_WORDS = {
    "CONN_REFUSED", "TIMEOUT", "TOKEN_EXPIRED", "DEADLOCK", "NOT_FOUND", "RATE_LIMITED",
    "SCHEMA_MISMATCH", "OUT_OF_MEMORY", "CHECKSUM", "UNAUTHORIZED", "CONFLICT", "UNAVAILABLE"
  };
  static final String[] COMMANDS = {
    "mvn -pl %s -am test", "git bisect start HEAD %s", "kubectl rollout restart deploy/%s",
    "docker compose up -d %s", "./gradlew :%s:check --info", "psql -c 'VACUUM ANALYZE %s'",
    "curl -sS localhost:8080/%s/health", "npm run build --workspace=%s"
  };
  static final String[] PEOPLE = {
    "Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Júlia", "Kenji",
    "Leila", "Mateo", "Nadia", "Omar", "Priya"
  };
  static final String[] FILLER = {
    "the",
    "a",
    "we",
    "it",
    "that",
    "this",
    "after",
    "before",
    "because",
    "when",
    "again",
    "still",
    "only",
    "really",
    "probably",
    "yesterday",
    "today",
    "last",
    "week",
    "sprint",
    "meeting",
    "team",
    "fix",
    "change",
    "problem",
    "slow",
    "fast",
    "broken",
    "flaky",
    "works",
    "locally",
    "prod",
    "staging",
    "review",
    "agreed",
    "decided",
    "prefer",
    "should",
    "never",
    "always",
    "later"
  };
  static final String[] MEMORY_TEMPLATES = {
    "%P said %S fails with %E when %I runs twice; the fix is in %F.",
    "We decided to move %I out of %F and call %J from %S instead.",
    "%P prefers %J over %I because the old path in %F was %W.",
    "The %W build of %S broke on %E; run `%C` to reproduce it.",
    "Remember: %I must %V the %N before %J, otherwise %S returns %E.",
    "Deploy note for %S: `%C` after changing %F, and watch for %E in the logs.",
    "%P found that %J in %F leaks the %N %W, so we added a guard in %I.",
    "The %N cache in %S is keyed by %J; clearing it fixed %E for %P.",
    "In the %W review %P asked to rename %I to %J in %F.",
    "%S started throwing %E after the %N migration; rolling back with `%C` helped."
  };
  static final String[] QUERY_TEMPLATES = {
    "why does %S fail with %E?",
    "where did we move %I?",
    "how do I reproduce the %E in %S",
    "what did %P say about %J",
    "what's the deploy command for %S",
    "which file has %J and %I",
    "%E again in %S after the %N change, what was the fix?",
    "should I call %J or %I from %S?"
  };

  private CorpusVocabulary() {}
}
