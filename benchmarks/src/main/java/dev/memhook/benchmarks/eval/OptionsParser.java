package dev.memhook.benchmarks.eval;

import dev.memhook.benchmarks.CommandLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Parses {@link RetrievalEval}'s command line into {@link RetrievalEval.Options}. Stateless. */
final class OptionsParser {

  static final String USAGE =
      "usage: RetrievalEval --data FILE.jsonl [--embedder hashing|djl-int8|djl-fp32|djl-bge|djl-e5]"
          + " [--store lucene|lucene-per-scope] [--no-session-cap | --max-per-session N] [--min-cosine X] [--min-text X]"
          + " [--evidence-cosine X --evidence-text X] [--no-context]"
          + " [--ingest remember|capture] [--unnamed-speakers]"
          + " [--distractors N] [--distractor-seed S] [--dump FILE.jsonl]"
          + " [--trace FILE.jsonl]";

  private OptionsParser() {}

  /**
   * Parses {@code args}.
   *
   * @throws IllegalArgumentException if an option is unknown, lacks its value or is malformed
   */
  static RetrievalEval.Options parse(String... args) {
    Path data = null;
    String embedder = "hashing";
    String store = "lucene";
    boolean noCap = false;
    int maxPerSession = 0;
    double minCosine = Double.NaN;
    double minText = Double.NaN;
    double evidenceCosine = Double.NaN;
    double evidenceText = Double.NaN;
    boolean context = true;
    RetrievalEval.Ingest ingest = RetrievalEval.Ingest.REMEMBER;
    boolean named = true;
    int distractors = 0;
    long distractorSeed = CodingDistractors.DEFAULT_SEED;
    Path dump = null;
    Path trace = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--data" -> data = Path.of(value(args, ++i, a));
        case "--embedder" -> embedder = value(args, ++i, a);
        case "--store" -> store = value(args, ++i, a);
        case "--no-session-cap" -> noCap = true;
        case "--max-per-session" -> maxPerSession = CommandLine.count(args, ++i);
        case "--min-cosine" -> minCosine = CommandLine.number(args, ++i);
        case "--min-text" -> minText = CommandLine.number(args, ++i);
        case "--evidence-cosine" -> evidenceCosine = CommandLine.number(args, ++i);
        case "--evidence-text" -> evidenceText = CommandLine.number(args, ++i);
        case "--no-context" -> context = false;
        case "--ingest" -> ingest = ingest(value(args, ++i, a));
        case "--unnamed-speakers" -> named = false;
        case "--distractors" -> distractors = CommandLine.count(args, ++i);
        case "--distractor-seed" -> distractorSeed = CommandLine.whole(args, ++i);
        case "--dump" -> dump = Path.of(value(args, ++i, a));
        case "--trace" -> trace = Path.of(value(args, ++i, a));
        default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
      }
    }
    if (data == null) {
      throw new IllegalArgumentException("--data is required\n" + USAGE);
    }
    if (noCap && maxPerSession > 0) {
      throw new IllegalArgumentException(
          "--no-session-cap and --max-per-session exclude each other");
    }
    if (Double.isNaN(evidenceCosine) != Double.isNaN(evidenceText)) {
      throw new IllegalArgumentException("--evidence-cosine and --evidence-text go together");
    }
    if (ingest == RetrievalEval.Ingest.CAPTURE && !context) {
      throw new IllegalArgumentException(
          "--no-context applies to --ingest remember only (capture always stores the previous turn)");
    }
    if (sameFile(dump, data) || sameFile(trace, data)) {
      throw new IllegalArgumentException(
          "--dump and --trace write their files; neither may be the --data file");
    }
    if (sameFile(dump, trace)) {
      throw new IllegalArgumentException("--dump and --trace need files of their own");
    }
    return new RetrievalEval.Options(
        data,
        embedder,
        store,
        noCap,
        maxPerSession,
        minCosine,
        minText,
        evidenceCosine,
        evidenceText,
        context,
        ingest,
        named,
        distractors,
        distractorSeed,
        dump,
        trace);
  }

  /**
   * Whether {@code out}, a file a run writes, is {@code other}: the same file when both exist, else
   * the same absolute path. False when either is null.
   */
  private static boolean sameFile(Path out, Path other) {
    if (out == null || other == null) {
      return false;
    }
    if (Files.exists(out) && Files.exists(other)) {
      try {
        return Files.isSameFile(out, other);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out.toAbsolutePath().normalize().equals(other.toAbsolutePath().normalize());
  }

  private static RetrievalEval.Ingest ingest(String name) {
    return switch (name) {
      case "remember" -> RetrievalEval.Ingest.REMEMBER;
      case "capture" -> RetrievalEval.Ingest.CAPTURE;
      default ->
          throw new IllegalArgumentException(
              "unknown ingest '" + name + "'; known: remember, capture\n" + USAGE);
    };
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    }
    return args[i];
  }
}
