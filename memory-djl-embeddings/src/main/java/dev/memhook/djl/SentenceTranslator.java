package dev.memhook.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.Batchifier;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import java.util.Set;

/**
 * Feeds a padded {@link TokenBatch} to a BERT-style ONNX encoder and pools its output into one
 * un-normalised vector per sequence.
 *
 * <p>Stateless apart from its configuration, so one instance serves every predictor concurrently.
 * Pooling is done in Java on the output copied out of the engine: ONNX Runtime's NDArray supports
 * almost no operators, and the copy is small (batch × length × dimension floats).
 */
final class SentenceTranslator implements Translator<TokenBatch, float[][]> {
  static final String INPUT_IDS = "input_ids";
  static final String ATTENTION_MASK = "attention_mask";
  static final String TOKEN_TYPE_IDS = "token_type_ids";
  private static final String HIDDEN_STATE = "last_hidden_state";
  private static final String BATCH_KEY = "memhook.batch";

  private final Pooling pooling;
  private final boolean feedTokenTypeIds;
  private final long padId;

  SentenceTranslator(Pooling pooling, Set<String> modelInputs, long padId) {
    this.pooling = pooling;
    this.feedTokenTypeIds = modelInputs.contains(TOKEN_TYPE_IDS);
    this.padId = padId;
  }

  @Override
  public NDList processInput(TranslatorContext ctx, TokenBatch batch) {
    int rows = batch.size();
    int cols = batch.maxLength();
    long[] ids = new long[rows * cols];
    long[] mask = new long[rows * cols];
    for (int i = 0; i < rows; i++) {
      long[] sequence = batch.sequence(i);
      int offset = i * cols;
      for (int j = 0; j < cols; j++) {
        if (j < sequence.length) {
          ids[offset + j] = sequence[j];
          mask[offset + j] = 1;
        } else {
          ids[offset + j] = padId;
        }
      }
    }
    NDManager manager = ctx.getNDManager();
    Shape shape = new Shape(rows, cols);
    NDArray inputIds = manager.create(ids, shape);
    inputIds.setName(INPUT_IDS);
    NDArray attentionMask = manager.create(mask, shape);
    attentionMask.setName(ATTENTION_MASK);
    NDList inputs = new NDList(inputIds, attentionMask);
    if (feedTokenTypeIds) {
      NDArray typeIds = manager.create(new long[rows * cols], shape);
      typeIds.setName(TOKEN_TYPE_IDS);
      inputs.add(typeIds);
    }
    ctx.setAttachment(BATCH_KEY, batch);
    return inputs;
  }

  @Override
  public float[][] processOutput(TranslatorContext ctx, NDList outputs) {
    TokenBatch batch = (TokenBatch) ctx.getAttachment(BATCH_KEY);
    NDArray hidden = outputs.get(HIDDEN_STATE);
    if (hidden == null) {
      hidden = outputs.get(0);
    }
    Shape shape = hidden.getShape();
    float[] data = hidden.toFloatArray();
    int rows = batch.size();
    if (shape.dimension() == 2) {
      // The model pools by itself: one vector per row already.
      int dim = (int) shape.get(1);
      float[][] out = new float[rows][dim];
      for (int i = 0; i < rows; i++) {
        System.arraycopy(data, i * dim, out[i], 0, dim);
      }
      return out;
    }
    if (shape.dimension() != 3 || shape.get(0) != rows) {
      throw new IllegalStateException(
          "expected a [batch, tokens, dimension] output for " + rows + " rows, got " + shape);
    }
    int cols = (int) shape.get(1);
    int dim = (int) shape.get(2);
    float[][] out = new float[rows][dim];
    for (int i = 0; i < rows; i++) {
      int base = i * cols * dim;
      if (pooling == Pooling.CLS) {
        System.arraycopy(data, base, out[i], 0, dim);
        continue;
      }
      int length = batch.length(i);
      double[] sum = new double[dim];
      for (int j = 0; j < length; j++) {
        int row = base + j * dim;
        for (int k = 0; k < dim; k++) {
          sum[k] += data[row + k];
        }
      }
      for (int k = 0; k < dim; k++) {
        out[i][k] = (float) (sum[k] / length);
      }
    }
    return out;
  }

  @Override
  public Batchifier getBatchifier() {
    // Batches are built and padded by the embedder, not stacked by DJL.
    return null;
  }
}
