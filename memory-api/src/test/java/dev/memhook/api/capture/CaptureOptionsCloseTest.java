package dev.memhook.api.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The close settings of capture: their defaults, and the values the builder refuses at once. */
class CaptureOptionsCloseTest {

  @Test
  void byDefault_closeEndsTheOpenSessions_withinTheDefaultTimeout() {
    CaptureOptions defaults = CaptureOptions.defaults();
    assertTrue(defaults.endSessionsOnClose());
    assertEquals(CaptureOptions.DEFAULT_CLOSE_TIMEOUT, defaults.closeTimeout());
  }

  @Test
  void keepSessionsOpenOnClose_turnsEndingOff_andMayBeSetOnce() {
    CaptureOptions.Builder b = CaptureOptions.builder().keepSessionsOpenOnClose();
    assertThrows(IllegalStateException.class, b::keepSessionsOpenOnClose);
    assertFalse(b.build().endSessionsOnClose());
  }

  @Test
  void closeTimeout_mustBePositiveAndAtMostTheMaximum_andTheMessageNamesTheValue() {
    CaptureOptions.Builder b = CaptureOptions.builder();
    IllegalArgumentException zero =
        assertThrows(IllegalArgumentException.class, () -> b.closeTimeout(Duration.ZERO));
    assertTrue(zero.getMessage().contains("closeTimeout") && zero.getMessage().contains("PT0S"));
    assertThrows(IllegalArgumentException.class, () -> b.closeTimeout(Duration.ofMillis(-1)));
    IllegalArgumentException over =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.closeTimeout(CaptureOptions.MAX_CLOSE_TIMEOUT.plusNanos(1)));
    assertTrue(over.getMessage().contains("PT1H0.000000001S"), over.getMessage());
    assertThrows(NullPointerException.class, () -> b.closeTimeout(null));

    // a refused value sets nothing: the setting may still be set, once
    assertEquals(
        CaptureOptions.MAX_CLOSE_TIMEOUT,
        b.closeTimeout(CaptureOptions.MAX_CLOSE_TIMEOUT).build().closeTimeout());
    assertThrows(IllegalStateException.class, () -> b.closeTimeout(Duration.ofSeconds(1)));
  }
}
