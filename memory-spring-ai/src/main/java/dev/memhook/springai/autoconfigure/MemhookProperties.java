package dev.memhook.springai.autoconfigure;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.HookOptions;
import dev.memhook.api.RecallOptions;
import dev.memhook.springai.MemhookAdvisor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code memhook.*} properties of {@link MemhookAutoConfiguration}. Every value starts at the
 * library's own default, so an empty configuration gives the documented defaults; values are
 * checked when the beans are built, and a bad one fails startup with a message naming it.
 *
 * <p>The field comments become the descriptions IDEs show (the configuration processor copies them
 * verbatim), so they use no Javadoc tags; the defaults IDEs show are in {@code
 * META-INF/additional-spring-configuration-metadata.json}, since the processor cannot read a
 * default from another class's constant.
 *
 * <p>A mutable bean for Spring's binder: not thread-safe, and not meant to be changed after
 * startup. Setters accept what the binder gives them; nulls are rejected when the beans are built.
 */
@ConfigurationProperties("memhook")
public class MemhookProperties {

  /** Which embedder the memory service uses. */
  public enum EmbedderKind {
    /**
     * The embedder Memhook discovers on the class path: the bundled local MiniLM model when
     * memory-djl-embeddings is present, else the hashing embedder.
     */
    AUTO,
    /** The bundled local MiniLM model; needs dev.memhook:memory-djl-embeddings. */
    MINILM,
    /** The hashing embedder: no model, instant, lexical only; for tests and small demos. */
    HASHING
  }

  /** Whether Memhook's auto-configuration creates its beans. */
  private boolean enabled = true;

  /**
   * The directory the memory store (Lucene, with its capture journal) lives in. When unset,
   * memories are kept in memory and are lost when the application stops.
   */
  private Path directory;

  /** The embedder used for vector recall. */
  private EmbedderKind embedder = EmbedderKind.AUTO;

  private final Capture capture = new Capture();
  private final Recall recall = new Recall();
  private final Hook hook = new Hook();
  private final Advisor advisor = new Advisor();
  private final Metrics metrics = new Metrics();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Path getDirectory() {
    return directory;
  }

  public void setDirectory(Path directory) {
    this.directory = directory;
  }

  public EmbedderKind getEmbedder() {
    return embedder;
  }

  public void setEmbedder(EmbedderKind embedder) {
    this.embedder = embedder;
  }

  public Capture getCapture() {
    return capture;
  }

  public Recall getRecall() {
    return recall;
  }

  public Hook getHook() {
    return hook;
  }

  public Advisor getAdvisor() {
    return advisor;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  /** Capture of hooked conversations into memories. */
  public static class Capture {
    /**
     * Whether the service captures: hooked conversations become memories. Off, nothing is written
     * but what the host remembers itself.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Micrometer meters for the memory service (with memory-micrometer and a MeterRegistry). */
  public static class Metrics {
    /**
     * Whether the service's Micrometer meters are registered, when dev.memhook:memory-micrometer is
     * on the class path and the context has a MeterRegistry.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** How recall fuses its signals and gates what it returns. */
  public static class Recall {
    /**
     * How the signals are fused: standardised scores (the default) or reciprocal ranks. Either way
     * a query shaped like an identifier, path, SHA or error code weighs vectors at a fifth.
     */
    private FusionMethod fusion = RecallOptions.DEFAULT_FUSION;

    /** Weight of the full-text (BM25) signal in rank fusion, 0 to 10. */
    private double textWeight = RecallOptions.DEFAULT_TEXT_WEIGHT;

    /** Weight of the vector signal in rank fusion, 0 to 10. */
    private double vectorWeight = RecallOptions.DEFAULT_VECTOR_WEIGHT;

    /** Weight of the graph (shared concepts and files) signal in rank fusion, 0 to 10. */
    private double graphWeight = RecallOptions.DEFAULT_GRAPH_WEIGHT;

    private final Gate gate = new Gate();

    public FusionMethod getFusion() {
      return fusion;
    }

    public void setFusion(FusionMethod fusion) {
      this.fusion = fusion;
    }

    public double getTextWeight() {
      return textWeight;
    }

    public void setTextWeight(double textWeight) {
      this.textWeight = textWeight;
    }

    public double getVectorWeight() {
      return vectorWeight;
    }

    public void setVectorWeight(double vectorWeight) {
      this.vectorWeight = vectorWeight;
    }

    public double getGraphWeight() {
      return graphWeight;
    }

    public void setGraphWeight(double graphWeight) {
      this.graphWeight = graphWeight;
    }

    public Gate getGate() {
      return gate;
    }
  }

  /** The relevance gate: what a candidate needs to be injected at all. */
  public static class Gate {
    /** Whether the gate is on; off, every fused candidate passes. */
    private boolean enabled = true;

    /**
     * The cosine floor a candidate's vector similarity must reach, -1 to 1: a share of the way from
     * what unrelated text reaches to 1 (RecallOptions.CosineBase.BACKGROUND, the default).
     */
    private double minCosine = RecallOptions.DEFAULT_MIN_COSINE;

    /** The floor a candidate's normalised text score must reach, 0 to 1. */
    private double minTextScore = RecallOptions.DEFAULT_MIN_TEXT_SCORE;

    /**
     * The cosine one candidate must reach for a recall to return anything, counted like min-cosine;
     * not below min-cosine.
     */
    private double evidenceCosine = RecallOptions.DEFAULT_EVIDENCE_COSINE;

    /**
     * The normalised text score one candidate must reach for a recall to return anything; not below
     * min-text-score.
     */
    private double evidenceTextScore = RecallOptions.DEFAULT_EVIDENCE_TEXT_SCORE;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public double getMinCosine() {
      return minCosine;
    }

    public void setMinCosine(double minCosine) {
      this.minCosine = minCosine;
    }

    public double getMinTextScore() {
      return minTextScore;
    }

    public void setMinTextScore(double minTextScore) {
      this.minTextScore = minTextScore;
    }

    public double getEvidenceCosine() {
      return evidenceCosine;
    }

    public void setEvidenceCosine(double evidenceCosine) {
      this.evidenceCosine = evidenceCosine;
    }

    public double getEvidenceTextScore() {
      return evidenceTextScore;
    }

    public void setEvidenceTextScore(double evidenceTextScore) {
      this.evidenceTextScore = evidenceTextScore;
    }
  }

  /** How each conversation's hook recalls and injects. */
  public static class Hook {
    /**
     * The scopes hooks recall from, in order of preference (for example acme/alice,acme/team); each
     * memory's scope is shown to the model when there is more than one.
     */
    private List<String> scopes = new ArrayList<>(List.of("default"));

    /** The scope captures go to: one of the scopes; unset, the first of them. */
    private String captureScope;

    /**
     * The name of the memory tool offered to the model; change it only when another memory service
     * hooks the same conversations.
     */
    private String toolName = HookOptions.DEFAULT_TOOL_NAME;

    /** The most memories recalled for one scanned message, 1 to 100. */
    private int maxPerMessage = HookOptions.DEFAULT_MAX_PER_MESSAGE;

    /** The most memories one callback injects, 1 to 1000. */
    private int maxPerCallback = HookOptions.DEFAULT_MAX_PER_CALLBACK;

    /** How long a callback waits for recall before the turn goes on without memories. */
    private Duration recallTimeout = HookOptions.DEFAULT_RECALL_TIMEOUT;

    public List<String> getScopes() {
      return scopes;
    }

    public void setScopes(List<String> scopes) {
      this.scopes = scopes;
    }

    public String getCaptureScope() {
      return captureScope;
    }

    public void setCaptureScope(String captureScope) {
      this.captureScope = captureScope;
    }

    public String getToolName() {
      return toolName;
    }

    public void setToolName(String toolName) {
      this.toolName = toolName;
    }

    public int getMaxPerMessage() {
      return maxPerMessage;
    }

    public void setMaxPerMessage(int maxPerMessage) {
      this.maxPerMessage = maxPerMessage;
    }

    public int getMaxPerCallback() {
      return maxPerCallback;
    }

    public void setMaxPerCallback(int maxPerCallback) {
      this.maxPerCallback = maxPerCallback;
    }

    public Duration getRecallTimeout() {
      return recallTimeout;
    }

    public void setRecallTimeout(Duration recallTimeout) {
      this.recallTimeout = recallTimeout;
    }
  }

  /** The ChatClient advisor. */
  public static class Advisor {
    /**
     * The advisor's order: by default Ordered.HIGHEST_PRECEDENCE + 250, inside Spring AI's
     * chat-memory advisors (+200) and outside its tool-calling advisor (+300).
     */
    private int order = MemhookAdvisor.DEFAULT_ORDER;

    /**
     * How long the advisor waits for the hook's callbacks of one phase before the call goes on
     * without them.
     */
    private Duration callbackTimeout = MemhookAdvisor.DEFAULT_CALLBACK_TIMEOUT;

    /**
     * The most requests the advisor hands on per ChatClient call: the first and its resends for new
     * memories. Spring AI's tool loop inside the advisor calls the model once more per round of
     * tool calls, which this does not bound.
     */
    private int maxLoopsPerCall = MemhookAdvisor.DEFAULT_MAX_LOOPS_PER_CALL;

    /** The conversation of requests that carry no conversation id. */
    private String defaultConversationId = MemhookAdvisor.DEFAULT_CONVERSATION_ID;

    /**
     * The most conversations the advisor holds, 1 to 1000000. One more ends the least recently used
     * idle conversation as endConversation does (its hook, view and injected pairs are dropped); a
     * later call with that id starts afresh and may be given the same memories once more.
     * Conversations in a call are never evicted.
     */
    private int maxConversations = MemhookAdvisor.DEFAULT_MAX_CONVERSATIONS;

    public int getOrder() {
      return order;
    }

    public void setOrder(int order) {
      this.order = order;
    }

    public Duration getCallbackTimeout() {
      return callbackTimeout;
    }

    public void setCallbackTimeout(Duration callbackTimeout) {
      this.callbackTimeout = callbackTimeout;
    }

    public int getMaxLoopsPerCall() {
      return maxLoopsPerCall;
    }

    public void setMaxLoopsPerCall(int maxLoopsPerCall) {
      this.maxLoopsPerCall = maxLoopsPerCall;
    }

    public String getDefaultConversationId() {
      return defaultConversationId;
    }

    public void setDefaultConversationId(String defaultConversationId) {
      this.defaultConversationId = defaultConversationId;
    }

    public int getMaxConversations() {
      return maxConversations;
    }

    public void setMaxConversations(int maxConversations) {
      this.maxConversations = maxConversations;
    }
  }
}
