package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.observation;
import static dev.memhook.core.internal.compress.CaptureFixtures.prompt;
import static dev.memhook.core.internal.compress.CaptureFixtures.session;
import static dev.memhook.core.internal.compress.CaptureFixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AgentRecapsTest {

  private static ObservationView answer(String said) {
    return ObservationView.of(
        stored(observation("a1", LifecycleEventType.AGENT_RESPONSE, EventData.message(said))));
  }

  @Test
  void aWorkflowTheAnswerSetsDownInACodeBlock_isKeptWithEachLineAStep() {
    AgentRecaps.Recap r =
        AgentRecaps.recap(
            answer(
                """
                Your first v2 board is alive: it boots and joined LoRaWAN.

                Workflow for the v2 boards with the Pi Debug Probe:

                ```
                west build -p -b soilsense_v2 app      # -p = pristine, needed after the DK
                west flash -r pyocd                     # CMSIS-DAP, not J-Link
                ```

                I left board.cmake as it is."""));
    assertEquals("Workflow for the v2 boards with the Pi Debug Probe", r.lead());
    assertEquals(
        "Workflow for the v2 boards with the Pi Debug Probe: west build -p -b soilsense_v2 app #"
            + " -p = pristine, needed after the DK; west flash -r pyocd # CMSIS-DAP, not J-Link;",
        r.content());
  }

  @Test
  void aRecapInAList_keepsEachItemAsASentence() {
    AgentRecaps.Recap r =
        AgentRecaps.recap(
            answer(
                """
                Staging is migrated: LED_431 is applied.

                Workflow from now on:
                - **staging / sandbox:** `./scripts/migrate.sh staging` (builds the bundle)
                - **prod:** never from a laptop; the `deploy.yml` action applies it

                Anything else?"""));
    assertEquals("Workflow from now on", r.lead());
    assertEquals(
        "Workflow from now on: staging / sandbox: ./scripts/migrate.sh staging (builds the"
            + " bundle). prod: never from a laptop; the deploy.yml action applies it.",
        r.content());
  }

  @Test
  void aLeadInAnotherLanguage_afterASentence_isARecap() {
    AgentRecaps.Recap r =
        AgentRecaps.recap(
            answer(
                "Fertig: statisch gelinkt, 9,1 MB. Befehl zum Merken: `cargo zigbuild --release"
                    + " -p tp-cli --target x86_64-unknown-linux-musl`."));
    assertEquals("Befehl zum Merken", r.lead());
    assertEquals(
        "Befehl zum Merken: cargo zigbuild --release -p tp-cli --target"
            + " x86_64-unknown-linux-musl.",
        r.content());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "From now on I'll keep the tests green before every commit.",
        "Next time we could look at caching the geocoder.",
        "Next time, have a look at `UserService` first.",
        "I'll remember that for next time: `npm ci` before `npm test`.",
        "The workflow file runs on push; nothing to change there.",
      })
  void noLeadOrNoCommandInCode_isNoRecap(String said) {
    assertNull(AgentRecaps.recap(answer(said)));
  }

  @Test
  void theConsolidatorKeepsARecapAsAWorkflow_withTheTaskOfItsTurn() {
    List<Consolidation> found =
        new HeuristicConsolidator()
            .consolidate(
                session(),
                List.of(
                    stored(prompt("p1", "the v2 boards arrived, can you flash one?")),
                    stored(
                        observation(
                            "a1",
                            LifecycleEventType.AGENT_RESPONSE,
                            EventData.message(
                                "Done. For next time: `west flash -r pyocd` (the default runner"
                                    + " needs a J-Link).")))));
    List<Consolidation> workflows =
        found.stream().filter(c -> c.type() == MemoryType.WORKFLOW).toList();
    assertEquals(1, workflows.size(), found.toString());
    assertEquals("Workflow: For next time", workflows.get(0).title());
    assertEquals(
        "For next time: west flash -r pyocd (the default runner needs a J-Link). (For the task"
            + " \"the v2 boards arrived, can you flash one?\".)",
        workflows.get(0).content());
  }
}
