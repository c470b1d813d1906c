package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The note quoting a task, as written and as found again at a content's end. */
class TaskNoteTest {

  @Test
  void aNoteWritten_isFoundAtTheContentsEnd_bothKinds() {
    String rules = "Project rules in STYLE.md: models are stg_<source>__<table>.";
    String read = rules + TaskNote.readFor("add the \"orders\" model, see (STYLE.md)");
    assertEquals(
        rules + " (Read for the task \"add the \"orders\" model, see (STYLE.md)\".)", read);
    assertEquals(rules.length(), TaskNote.start(read));

    String steps = "Workflow for the v2 boards: west flash -r pyocd.";
    String worked = steps + TaskNote.workedOutFor("flash main onto the v2 board");
    assertEquals(steps + " (For the task \"flash main onto the v2 board\".)", worked);
    assertEquals(steps.length(), TaskNote.start(worked));
  }

  @Test
  void aLongTask_isQuotedToAWord_andStillFound() {
    String task = "migrate the invoices table ".repeat(40);
    String content = "Rules." + TaskNote.readFor(task);
    assertEquals(6, TaskNote.start(content));
    int quoted = content.length() - 6 - " (Read for the task \"".length() - "\".)".length();
    assertTrue(quoted <= TaskNote.QUOTED_CHARS + 1, content);
  }

  @Test
  void aContentClosingWithNoNote_isWhole() {
    for (String content :
        List.of(
            "",
            "Use pnpm, never npm.",
            "He said (For the task \"x\".) and then more.",
            "(For the task \"a note with nothing before it\".)",
            "ends like a note does \".)")) {
      assertEquals(content.length(), TaskNote.start(content), content);
    }
  }
}
