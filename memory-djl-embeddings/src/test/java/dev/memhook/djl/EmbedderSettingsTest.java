package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class EmbedderSettingsTest {

  @Test
  void withDefaults_fillsEveryUnsetOptionWithItsDocumentedDefault() {
    EmbedderSettings settings =
        EmbedderSettings.withDefaults(null, null, null, null, null, null, null, null);
    assertEquals(
        new EmbedderSettings(
            Pooling.MEAN,
            true,
            DjlEmbedder.DEFAULT_MAX_TOKENS,
            DjlEmbedder.DEFAULT_BATCH_SIZE,
            Runtime.getRuntime().availableProcessors(),
            OptionalInt.empty(),
            TextPrefixes.NONE,
            DjlEmbedder.DEFAULT_MAX_WINDOWS,
            false),
        settings);
  }

  @Test
  void withDefaults_keepsEverySetOption() {
    EmbedderSettings settings =
        EmbedderSettings.withDefaults(Pooling.CLS, false, 64, 4, 3, 1, TextPrefixes.BGE_QUERY, 2);
    assertEquals(
        new EmbedderSettings(
            Pooling.CLS, false, 64, 4, 3, OptionalInt.of(1), TextPrefixes.BGE_QUERY, 2, true),
        settings);
  }

  @Test
  void checks_nameTheOptionAndTheRejectedValue() {
    assertEquals(
        "intraOpThreads must be positive, got -2",
        assertThrows(
                IllegalArgumentException.class,
                () -> EmbedderSettings.checkPositive("intraOpThreads", -2))
            .getMessage());
    assertEquals(
        "maxTokens must be between 8 and 8192, got 8193",
        assertThrows(IllegalArgumentException.class, () -> EmbedderSettings.checkMaxTokens(8193))
            .getMessage());
    assertEquals(8, EmbedderSettings.checkMaxTokens(8));
    assertEquals(
        "maxWindows must be between 1 and 1024, got 0",
        assertThrows(IllegalArgumentException.class, () -> EmbedderSettings.checkMaxWindows(0))
            .getMessage());
  }

  @Test
  void constructor_rejectsWhatTheBuilderWouldReject() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new EmbedderSettings(
                Pooling.MEAN, true, 7, 1, 1, OptionalInt.empty(), TextPrefixes.NONE, 8, false));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new EmbedderSettings(
                Pooling.MEAN, true, 8, 1, 0, OptionalInt.empty(), TextPrefixes.NONE, 8, false));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new EmbedderSettings(
                Pooling.MEAN, true, 8, 1, 1, OptionalInt.of(0), TextPrefixes.NONE, 8, false));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new EmbedderSettings(
                Pooling.MEAN, true, 8, 1, 1, OptionalInt.empty(), TextPrefixes.NONE, 1025, false));
    assertThrows(
        NullPointerException.class,
        () ->
            new EmbedderSettings(
                null, true, 8, 1, 1, OptionalInt.empty(), TextPrefixes.NONE, 8, false));
  }
}
