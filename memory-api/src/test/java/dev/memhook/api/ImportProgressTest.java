package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a progress report computes, and the reports it refuses. */
class ImportProgressTest {

  @Test
  void rateAndTimeLeft_followFromWhatWasStoredSoFar() {
    ImportProgress p = new ImportProgress(250, 1000, Duration.ofSeconds(5));
    assertEquals(50.0, p.perSecond(), 1e-9);
    assertEquals(Optional.of(Duration.ofSeconds(15)), p.remaining());
    assertEquals(
        Optional.of(Duration.ZERO), new ImportProgress(10, 10, Duration.ofSeconds(1)).remaining());
  }

  @Test
  void beforeAnythingIsStored_thereIsNoRateAndNoEstimate() {
    ImportProgress p = new ImportProgress(0, 1000, Duration.ZERO);
    assertEquals(0.0, p.perSecond());
    assertEquals(Optional.empty(), p.remaining());
  }

  @Test
  void impossibleReports_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ImportProgress(-1, 3, Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new ImportProgress(4, 3, Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class, () -> new ImportProgress(1, 3, Duration.ofSeconds(-1)));
    assertThrows(NullPointerException.class, () -> new ImportProgress(1, 3, null));
  }
}
