package dev.memhook.examples;

import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.memhook.langchain4j.LangChain4jChatService;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The model the demo plays with: the deterministic {@link ScriptedModel} on a {@link
 * FakeChatService}, or a real model behind an OpenAI-compatible endpoint through the LangChain4j
 * adapter, when the environment names one.
 *
 * <p>Immutable and thread-safe; each {@link #newChat()} is a new conversation.
 */
abstract class DemoModel {

  /** The endpoint, for example {@code https://api.openai.com/v1} or a local server's. */
  static final String BASE_URL = "MEMHOOK_DEMO_BASE_URL";

  /** The model name the endpoint serves, for example {@code gpt-4o-mini}. */
  static final String MODEL = "MEMHOOK_DEMO_MODEL";

  /** The API key, if the endpoint needs one. */
  static final String API_KEY = "MEMHOOK_DEMO_API_KEY";

  private static final String SYSTEM =
      "You are a coding agent working in the user's Java repository. Use the edit_file and"
          + " run_tests tools when asked to change code, and run the tests again after a fix."
          + " Memories from earlier conversations reach you as get_memory results with short"
          + " summaries; when one looks relevant, call get_memory with {\"id\": ID} to read it in"
          + " full before you answer, and follow what it says.";

  /** A new conversation on this model. */
  abstract ChatHarness newChat();

  /** What the demo prints about the model. */
  abstract String description();

  /** Whether the model is the deterministic script, whose every step the demo can check. */
  abstract boolean isScripted();

  /** How long one user turn may take, tools and resends included. */
  abstract Duration turnTimeout();

  /**
   * Sets in {@code environment} the variables that choose this model in {@link #fromEnvironment},
   * and removes those that would choose another: how a lifetime of the demo in a JVM of its own
   * plays the same model.
   */
  abstract void environment(Map<String, String> environment);

  /**
   * The real model {@code environment} names ({@value #BASE_URL} and {@value #MODEL} both set),
   * else the scripted one.
   */
  static DemoModel fromEnvironment(Map<String, String> environment) {
    String baseUrl = environment.get(BASE_URL);
    String model = environment.get(MODEL);
    if (isBlank(baseUrl) && isBlank(model)) {
      return scripted();
    }
    if (isBlank(baseUrl) || isBlank(model)) {
      throw new IllegalArgumentException(
          "set both " + BASE_URL + " and " + MODEL + " to play a real model, or neither");
    }
    return openAiCompatible(baseUrl, model, environment.get(API_KEY));
  }

  /** The deterministic script on the test kit's chat service: no network. */
  static DemoModel scripted() {
    return new DemoModel() {
      @Override
      ChatHarness newChat() {
        FakeChatService chat = FakeChatService.builder().fallbackModel(new ScriptedModel()).build();
        return ChatHarness.of(chat, chat::sendUser);
      }

      @Override
      String description() {
        return "scripted (deterministic, no network; set "
            + BASE_URL
            + " and "
            + MODEL
            + " to play a real model)";
      }

      @Override
      boolean isScripted() {
        return true;
      }

      @Override
      Duration turnTimeout() {
        return Duration.ofSeconds(30);
      }

      @Override
      void environment(Map<String, String> environment) {
        environment.remove(BASE_URL);
        environment.remove(MODEL);
        environment.remove(API_KEY);
      }
    };
  }

  /** A real model behind an OpenAI-compatible endpoint, through {@link LangChain4jChatService}. */
  static DemoModel openAiCompatible(String baseUrl, String modelName, String apiKey) {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(modelName, "modelName");
    return new DemoModel() {
      @Override
      ChatHarness newChat() {
        OpenAiChatModel model =
            OpenAiChatModel.builder()
                .baseUrl(baseUrl)
                .apiKey(isBlank(apiKey) ? "none" : apiKey)
                .modelName(modelName)
                .temperature(0.0)
                .timeout(Duration.ofSeconds(120))
                .build();
        LangChain4jChatService chat =
            LangChain4jChatService.builder().chatModel(model).systemMessage(SYSTEM).build();
        return ChatHarness.of(chat, chat::sendUser);
      }

      @Override
      String description() {
        return modelName + " at " + baseUrl + " (through memory-langchain4j)";
      }

      @Override
      boolean isScripted() {
        return false;
      }

      @Override
      Duration turnTimeout() {
        return Duration.ofMinutes(5);
      }

      @Override
      void environment(Map<String, String> environment) {
        environment.put(BASE_URL, baseUrl);
        environment.put(MODEL, modelName);
        if (isBlank(apiKey)) {
          environment.remove(API_KEY);
        } else {
          environment.put(API_KEY, apiKey);
        }
      }
    };
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
