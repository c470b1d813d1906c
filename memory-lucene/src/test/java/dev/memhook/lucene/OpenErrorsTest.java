package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Which open failures are called damage (restore or rebuild) and which a disk problem (retry). */
class OpenErrorsTest {

  private static IOException thrownAt(String className, String message) {
    IOException e = new IOException(message);
    e.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, "read", null, 1)});
    return e;
  }

  @Test
  void malformedDataLuceneFoundWhileDecoding_isDamage_withARemedy() {
    String m =
        OpenErrors.of(
                thrownAt(
                    "org.apache.lucene.store.DataInput", "Invalid vInt detected (too many bits)"),
                "index at /x",
                false)
            .getMessage();
    assertTrue(m.startsWith("the index at /x is damaged (Invalid vInt detected"), m);
    assertTrue(m.contains("restore it from a backup"), m);
  }

  @Test
  void anIoErrorFromBelowLucene_isStillADiskProblemToRetry() {
    String m =
        OpenErrors.of(
                thrownAt("sun.nio.ch.FileDispatcherImpl", "Input/output error"),
                "index at /x",
                false)
            .getMessage();
    assertTrue(m.contains("check that the disk is available"), m);
  }
}
