package dev.memhook.djl;

/**
 * How {@link DjlEmbedder} turns the model's per-token vectors into one vector per text.
 *
 * <p>An enum, so immutable and thread-safe.
 */
public enum Pooling {
  /**
   * The mean of the token vectors over the attention mask (padding excluded), the special tokens
   * included. What sentence-transformers models such as all-MiniLM-L6-v2 were trained with.
   */
  MEAN,

  /** The vector of the first token ({@code [CLS]} for BERT-style models). */
  CLS
}
