package dev.memhook.benchmarks;

import dev.memhook.api.spi.Embedder;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.JointEmbedder;
import dev.memhook.djl.BundledModel;
import dev.memhook.djl.DjlEmbedder;

/** The embedders the benchmarks and the evaluation run with, by their command-line name. */
public final class BenchEmbedders {

  private BenchEmbedders() {}

  /**
   * A new embedder: {@code hashing} ({@link HashingEmbedder}, 256 dimensions, no model), {@code
   * djl-int8} ({@link DjlEmbedder#bundledMiniLm()}), {@code djl-int8-1t} (the same model with one
   * ONNX Runtime thread per call, {@link DjlEmbedderBuilder#intraOpThreads(int)}: the embedded
   * default a service gets from {@link dev.memhook.djl.DjlEmbedderProvider}), {@code djl-fp32}
   * ({@link DjlEmbedder#bundledMiniLmFp32()}), {@code djl-bge} (int8 BGE small en v1.5, {@link
   * BundledModel#BGE_SMALL_EN_V15_Q}, query instruction on queries) or {@code djl-e5} (int8 E5
   * small v2, {@link BundledModel#E5_SMALL_V2_Q}, {@code query: }/{@code passage: } prefixes) or
   * {@code djl-int8+e5} (the int8 MiniLM and E5 as one {@link JointEmbedder}). The caller closes it
   * (or hands it to a service).
   *
   * @throws IllegalArgumentException if the name is unknown
   */
  public static Embedder create(String name) {
    return switch (name) {
      case "hashing" -> HashingEmbedder.create();
      case "djl-int8" -> DjlEmbedder.bundledMiniLm();
      case "djl-int8-1t" -> DjlEmbedder.bundledMiniLmBuilder().intraOpThreads(1).build();
      case "djl-fp32" -> DjlEmbedder.bundledMiniLmFp32();
      case "djl-bge" -> DjlEmbedder.bundled(BundledModel.BGE_SMALL_EN_V15_Q);
      case "djl-e5" -> DjlEmbedder.bundled(BundledModel.E5_SMALL_V2_Q);
      case "djl-int8+e5" ->
          JointEmbedder.of(
              DjlEmbedder.bundledMiniLm(), DjlEmbedder.bundled(BundledModel.E5_SMALL_V2_Q));
      default ->
          throw new IllegalArgumentException(
              "unknown embedder '"
                  + name
                  + "'; known: hashing, djl-int8, djl-int8-1t, djl-fp32, djl-bge, djl-e5,"
                  + " djl-int8+e5");
    };
  }
}
