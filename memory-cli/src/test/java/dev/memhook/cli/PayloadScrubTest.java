package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.core.Redaction;
import org.junit.jupiter.api.Test;

/** {@link PayloadScrub}: what of a hook payload is redacted, and that its shape is kept. */
class PayloadScrubTest {
  private final PayloadScrub scrub = new PayloadScrub(Redaction.defaults());

  @Test
  void secretNamedKeys_haveTheirValuesRedacted_atAnyDepth_whateverTheValuesType() throws Exception {
    JsonNode out =
        scrub.scrub(
            object(
                "{\"tool_input\":{\"host\":\"db.internal\",\"password\":\"hunter2-Sup3r-s3cret\","
                    + "\"options\":{\"api_token\":\"t0k3n-value-123\",\"db_password\":98765432,"
                    + "\"retries\":3,\"tls\":true}}}"));
    assertEquals(
        "{\"tool_input\":{\"host\":\"db.internal\",\"password\":\"[redacted:secret]\","
            + "\"options\":{\"api_token\":\"[redacted:secret]\",\"db_password\":\"[redacted:secret]\","
            + "\"retries\":3,\"tls\":true}}}",
        out.toString());
  }

  @Test
  void credentialsInsideStrings_keysAndArrays_areRedacted_andTheRestIsKept() throws Exception {
    JsonNode out =
        scrub.scrub(
            object(
                "{\"command\":\"AWS_ACCESS_KEY_ID=AKIAZ3MHQ7RT2XK5PLNV aws s3 ls\","
                    + "\"args\":[\"--token\",\"ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM\",7,null],"
                    + "\"ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM\":\"as a key\"}"));
    assertEquals(
        "{\"command\":\"AWS_ACCESS_KEY_ID=[redacted:aws-key] aws s3 ls\","
            + "\"args\":[\"--token\",\"[redacted:github-token]\",7,null],"
            + "\"[redacted:github-token]\":\"as a key\"}",
        out.toString());
  }

  @Test
  void aPayloadWithoutSecrets_isLeftExactlyAsItWas() throws Exception {
    ObjectNode in =
        object(
            "{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"s-1\",\"cwd\":\"/home/dev/shop\","
                + "\"tool_input\":{\"command\":\"./gradlew test\",\"timeout\":120000},"
                + "\"tool_response\":{\"stdout\":\"BUILD SUCCESSFUL\\n42 tests\","
                + "\"interrupted\":false,\"lines\":[1,2.5,\"x\"]},\"data\":{}}");
    String before = in.toString();
    assertEquals(in, scrub.scrub(in));
    assertEquals(before, in.toString(), "the argument is not changed");
  }

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) JsonRecords.MAPPER.readTree(json);
  }
}
