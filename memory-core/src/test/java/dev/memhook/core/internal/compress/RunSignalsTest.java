package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
          go test, packages ok       | ok  \\tgithub.com/acme/billing/internal/http\\t1.402s\\nok  \\tgithub.com/acme/billing/internal/store\\t(cached)\\n?   \\tgithub.com/acme/billing/cmd\\t[no test files] | PASSED | 2 passed
          go test, a package failed  | ok  \\tgithub.com/acme/a\\t0.2s\\n--- FAIL: TestTotal (0.00s)\\nFAIL\\tgithub.com/acme/b\\t0.1s | FAILED | tests failed
          """)
  void aTestSummary_givesTheOutcomeAndItsCount(
      String runner, String output, RunSignals.Outcome outcome, String label) {
    RunSignals s = RunSignals.of(output.replace("\\n", "\n").replace("\\t", "\t"));
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

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          terraform validate | Success! The configuration is valid.\\n                  | Success! The configuration is valid.
          mypy               | Success: no issues found in 12 source files\\n          | Success: no issues found in 12 source files.
          ruff, indented     | warning: a note first\\n  All checks passed!\\n          | All checks passed!
          """)
  void aCheckersSuccessLine_readsAsPassed_andIsStated(String tool, String output, String fact) {
    RunSignals s = RunSignals.of(output.replace("\\n", "\n"));
    assertEquals(RunSignals.Outcome.PASSED, s.outcome(), tool);
    assertFalse(s.tests(), tool);
    assertEquals(java.util.List.of(fact), s.facts(), tool);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a mention inside a line      | the deploy said Success! but it was not
          success beside an error      | Success! The configuration is valid.\\nError: Unsupported argument
          success with a failing exit  | Success: built\\nexit code 2
          success beside a build failure | Success: step one\\nBUILD FAILED
          """)
  void successOnlyCounts_atTheStartOfALine_andWithNoSignOfFailure(String what, String output) {
    RunSignals s = RunSignals.of(output.replace("\\n", "\n"));
    assertNotEquals(RunSignals.Outcome.PASSED, s.outcome(), what + ": " + s);
  }

  @org.junit.jupiter.api.Test
  void successMarkersRepeatedOnOneLineOfOtherText_areNotASuccess() {
    String hostile = "x" + "Success: ".repeat(RunSignals.WINDOW);
    RunSignals s = RunSignals.of(hostile);
    assertEquals(RunSignals.Outcome.UNKNOWN, s.outcome());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Jest       | PASS src/a.test.ts\\nJest: "global" coverage threshold for lines (85%) not met: 82.4% | Coverage: Jest: "global" coverage threshold for lines (85%) not met: 82.4%.
          nyc        | ERROR: Coverage for lines (82.4%) does not meet global threshold (85%)        | Coverage: ERROR: Coverage for lines (82.4%) does not meet global threshold (85%).
          pytest-cov | ===== 26 passed in 2.41s =====\\nRequired test coverage of 85% reached. Total coverage: 91.00% | Coverage: Required test coverage of 85% reached. Total coverage: 91.00%.
          JaCoCo     | [WARNING] Rule violated for bundle shop: lines covered ratio is 0.82, but expected minimum is 0.85 | Coverage: [WARNING] Rule violated for bundle shop: lines covered ratio is 0.82, but expected minimum is 0.85.
          """)
  void aCoverageThreshold_isQuotedAsAFact(String tool, String output, String fact) {
    RunSignals s = RunSignals.of(output.replace("\\n", "\n"));
    assertTrue(s.facts().contains(fact), tool + ": " + s.facts());
    RunSignals.Outcome expected =
        tool.equals("pytest-cov") ? RunSignals.Outcome.PASSED : RunSignals.Outcome.FAILED;
    assertEquals(expected, s.outcome(), tool + ": a threshold not met fails the run");
  }

  @org.junit.jupiter.api.Test
  void aRunWithoutACoverageThreshold_quotesNoCoverage() {
    RunSignals s = RunSignals.of("All files |   82.4 |   71.2 |\n===== 26 passed in 2.41s =====");
    assertTrue(s.facts().stream().noneMatch(f -> f.startsWith("Coverage:")), s.facts().toString());
  }
}
