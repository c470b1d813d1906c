package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which test summaries say how a run went, and what they count. */
class RunSignalsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          pytest, failed             | F.\\n===== 1 failed, 25 passed in 2.41s =====          | FAILED | 1 failure
          pytest, passed             | ..\\n===== 26 passed in 2.41s =====                  | PASSED | 26 passed
          pytest, an error           | E.\\n===== 1 passed, 1 error in 0.30s =====          | FAILED | 1 failure
          Gradle, completed          | 3 tests completed, 1 failed\\nBUILD FAILED           | FAILED | 1 failure
          Jest                       | Tests:       1 failed, 13 passed, 14 total          | FAILED | 1 failure
          RSpec, failed              | Finished in 0.2 seconds\\n5 examples, 2 failures     | FAILED | 2 failures
          RSpec, passed              | Finished in 0.2 seconds\\n5 examples, 0 failures     | PASSED | 5 passed
          ExUnit                     | Finished in 0.04 seconds\\n12 tests, 1 failure        | FAILED | 1 failure
          Minitest                   | 10 runs, 20 assertions, 1 failures, 0 errors, 0 skips | FAILED | 1 failure
          Minitest, an error         | 10 runs, 20 assertions, 0 failures, 1 errors, 0 skips | FAILED | 1 failure
          Node, spec reporter        | ▶ format\\n  ✖ pads digits\\nℹ tests 14\\nℹ pass 13\\nℹ fail 1 | FAILED | 1 failure
          Node, spec reporter passed | ℹ tests 14\\nℹ suites 3\\nℹ pass 14\\nℹ fail 0\\nℹ duration_ms 41 | PASSED | 14 passed
          Node, TAP                  | ok 1 - formats\\n# tests 2\\n# pass 1\\n# fail 1 | FAILED | 1 failure
          Mocha                      |   3 passing (12ms)\\n  1 failing                 | FAILED | 1 failure
          a runner's bare count      | FAIL (1 failure)\\nthe cart total is NaN\\n  at line 12 | FAILED | 1 failure
          """)
  void aTestSummary_givesTheOutcomeAndItsCount(
      String runner, String output, RunSignals.Outcome outcome, String label) {
    RunSignals s = RunSignals.of(output.replace("\\n", "\n"));
    assertTrue(s.tests(), runner);
    assertEquals(outcome, s.outcome(), runner);
    assertEquals(label, s.label(), runner);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a listing                  | README.md\\nsrc
          a compiler's error count   | Main.java:3: error: ';' expected\\n1 error
          a version                  | Terraform v1.7.5\\non linux_amd64
          """)
  void outputWithoutATestSummary_isNotATestRun(String what, String output) {
    assertFalse(RunSignals.of(output.replace("\\n", "\n")).tests(), what);
  }
}
