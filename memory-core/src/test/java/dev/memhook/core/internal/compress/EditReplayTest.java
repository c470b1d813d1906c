package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.observation;
import static dev.memhook.core.internal.compress.CaptureFixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.List;
import org.junit.jupiter.api.Test;

class EditReplayTest {

  private static final String PATH = "/work/app/config/app.toml";
  private static final String TEXT = "[server]\nport = 8080\nhost = \"0.0.0.0\"\n";

  private static ObservationView edit(String tool, String input) {
    return ObservationView.of(
        stored(
            observation(
                "e1",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool(tool, input, "The file has been updated."))));
  }

  private static String replace(String file, String before, String after) {
    return "{\"file_path\":\""
        + file
        + "\",\"old_string\":\""
        + before
        + "\",\"new_string\":\""
        + after
        + "\"}";
  }

  @Test
  void anEditReplacesTheTextItsOldStringNames_once() {
    assertEquals(
        "[server]\nport = 8082\nhost = \"0.0.0.0\"\n",
        EditReplay.replayed(PATH, TEXT, List.of(edit("Edit", replace(PATH, "8080", "8082")))));
    assertEquals(
        "[server]\nhost = \"0.0.0.0\"\n",
        EditReplay.replayed(PATH, TEXT, List.of(edit("Edit", replace(PATH, "port = 8080\\n", "")))),
        "an empty new string deletes");
  }

  @Test
  void editsApplyInOrder_andAWriteReplacesTheWholeFile() {
    List<ObservationView> edits =
        List.of(
            edit("Edit", replace(PATH, "8080", "8082")),
            edit("Edit", replace(PATH, "8082", "9000")));
    assertEquals(
        "[server]\nport = 9000\nhost = \"0.0.0.0\"\n", EditReplay.replayed(PATH, TEXT, edits));
    assertEquals(
        "[server]\nport = 1\n",
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(
                edit(
                    "Write",
                    "{\"file_path\":\"" + PATH + "\",\"content\":\"[server]\\nport = 1\\n\"}"))));
  }

  @Test
  void anAmbiguousOrAbsentOldString_cannotBeReplayed_butReplaceAllReplacesEachOne() {
    String twice = "a = 1\nb = 1\n";
    assertNull(EditReplay.replayed(PATH, twice, List.of(edit("Edit", replace(PATH, "1", "2")))));
    assertNull(EditReplay.replayed(PATH, TEXT, List.of(edit("Edit", replace(PATH, "9999", "1")))));
    assertEquals(
        "a = 2\nb = 2\n",
        EditReplay.replayed(
            PATH,
            twice,
            List.of(
                edit(
                    "Edit",
                    "{\"file_path\":\""
                        + PATH
                        + "\",\"old_string\":\"1\",\"new_string\":\"2\",\"replace_all\":true}"))));
  }

  @Test
  void anotherFile_aMultiEdit_orAnInputCutShort_cannotBeReplayed() {
    assertNull(
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(edit("Edit", replace("/work/other/config/app.toml", "8080", "8082")))));
    assertNull(
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(
                edit(
                    "MultiEdit",
                    "{\"file_path\":\""
                        + PATH
                        + "\",\"edits\":[{\"old_string\":\"8080\",\"new_string\":\"8082\"}]}"))));
    assertNull(
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(
                edit("Edit", "{\"file_path\":\"" + PATH + "\",\"old_string\":\"8080\",\"new_"))));
  }

  @Test
  void theTextEditorToolsStrReplaceAndCreate_replayAsAnEditAndAWrite() {
    assertEquals(
        "[server]\nport = 8082\nhost = \"0.0.0.0\"\n",
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(
                edit(
                    "str_replace_based_edit_tool",
                    "{\"command\":\"str_replace\",\"path\":\"config/app.toml\",\"old_str\":\"8080\","
                        + "\"new_str\":\"8082\"}"))));
    assertEquals(
        "x = 1",
        EditReplay.replayed(
            PATH,
            TEXT,
            List.of(
                edit(
                    "str_replace_based_edit_tool",
                    "{\"command\":\"create\",\"path\":\""
                        + PATH
                        + "\",\"file_text\":\"x = 1\"}"))));
  }

  @Test
  void pathsNameOneFile_whenEqualOrOneEndsWithTheOtherAtASeparator() {
    assertTrue(EditReplay.samePath(PATH, "config/app.toml"));
    assertTrue(EditReplay.samePath("./config/app.toml", PATH));
    assertTrue(EditReplay.samePath("C:\\work\\app.toml", "C:/work/app.toml"));
    assertFalse(EditReplay.samePath(PATH, "app/config/xapp.toml"));
    assertFalse(EditReplay.samePath(PATH, "ig/app.toml"));
    assertFalse(EditReplay.samePath(PATH, ""));
  }
}
