package dev.memhook.core.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A provider consolidator for the tests of session ends: records each call as {@code "<session>
 * <status>"} and keeps one preference, {@link #CONTENT}, from the first observation that says
 * "prefer". Thread-safe.
 */
final class RecordingConsolidator implements Consolidator {

  /** The content of the one memory it distils. */
  static final String CONTENT = "Indent every Java file of the shop with tabs, not spaces.";

  /** Each call, as {@code "<session> <status>"}, in order. */
  final List<String> calls = new CopyOnWriteArrayList<>();

  @Override
  public List<Consolidation> consolidate(Session session, List<Memory> observations) {
    calls.add(session.id() + " " + session.status());
    return observations.stream()
        .filter(m -> m.content().contains("prefer"))
        .limit(1)
        .map(
            m ->
                new Consolidation(
                    MemoryType.PREFERENCE,
                    "Tabs",
                    CONTENT,
                    List.of(),
                    List.of(),
                    0.8,
                    List.of(m.id())))
        .toList();
  }

  @Override
  public String name() {
    return "recording";
  }
}
