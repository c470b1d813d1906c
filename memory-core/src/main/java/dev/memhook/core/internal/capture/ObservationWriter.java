package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.NoiseAdmission;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import dev.memhook.core.internal.observe.MemoryIntake;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Stores a batch of accepted events as observations: leave out what {@link NoiseAdmission} says is
 * noise (stored as no memory; the worker still keeps it in its session), compress each other, build
 * its memory under the id its event determines, embed the batch in one call, and write it in one
 * store call. Events whose observation is already stored (a redelivery the pipeline recognised
 * late, or a replay after a crash) are not stored again but reported found stored, so storing is
 * idempotent; the worker still runs the session steps for them, which a crash may have cut off.
 *
 * <p>Each observation keeps its session's previous turn as context: the one this worker saw, or,
 * for a session another instance captured last (a shared session store), the latest stored
 * observation of the session.
 *
 * <p>Used by one thread at a time (the capture worker, or a caller running an event itself under
 * the pipeline's processing lock).
 */
final class ObservationWriter {

  /**
   * What became of one event of a batch: a memory stored, found stored ({@code memory} null), or
   * not admitted as noise ({@code notAdmitted} says why; nothing stored).
   */
  record Written(
      AcceptedEvent event,
      Observation observation,
      Memory memory,
      NoiseAdmission.Rejection notAdmitted) {
    boolean duplicate() {
      return memory == null && notAdmitted == null;
    }
  }

  private final MemoryStore store;
  private final DocumentEmbedder documents;
  private final MemoryIntake intake;
  private final GuardedCompressor compressor;

  ObservationWriter(
      MemoryStore store, Embedder embedder, MemoryIntake intake, GuardedCompressor compressor) {
    this.store = Objects.requireNonNull(store, "store");
    this.documents = DocumentEmbedder.forStore(Objects.requireNonNull(embedder, "embedder"), store);
    this.intake = Objects.requireNonNull(intake, "intake");
    this.compressor = Objects.requireNonNull(compressor, "compressor");
  }

  /**
   * Stores {@code batch}, in order; {@code book} gives and takes each session's previous turn.
   *
   * @return one result per event, in order
   * @throws RuntimeException if compression, embedding or the store fails: nothing of the batch is
   *     acknowledged then (the caller retries event by event)
   */
  List<Written> write(List<AcceptedEvent> batch, SessionBook book) {
    List<MemoryId> ids = new ArrayList<>(batch.size());
    batch.forEach(a -> ids.add(a.observationId()));
    Set<MemoryId> stored = store.getAll(ids).keySet();
    List<Written> out = new ArrayList<>(batch.size());
    List<Memory> fresh = new ArrayList<>();
    Map<MemoryId, Boolean> inBatch = new LinkedHashMap<>();
    for (AcceptedEvent a : batch) {
      Observation o = ObservationDrafts.observation(a);
      String session = o.sessionId();
      NoiseAdmission.Rejection noise = NoiseAdmission.rejection(o.type(), o.data()).orElse(null);
      if (noise != null) {
        // a question stays the context of the turn that answers it; other noise is no context
        if (noise == NoiseAdmission.Rejection.QUESTION) {
          book.setPreviousTurn(session, ObservationDrafts.turn(o));
        }
        out.add(new Written(a, o, null, noise));
        continue;
      }
      String context = book.previousTurn(session).orElseGet(() -> storedTurn(book, session));
      book.setPreviousTurn(session, ObservationDrafts.turn(o));
      if (stored.contains(a.observationId())
          || inBatch.putIfAbsent(a.observationId(), true) != null) {
        out.add(new Written(a, o, null, null));
        continue;
      }
      CompressedObservation c = compressor.compress(o);
      Memory memory =
          intake.newMemory(
              ObservationDrafts.draft(o, c, context), a.observationId(), a.capturedAt());
      fresh.add(memory);
      out.add(new Written(a, o, memory, null));
    }
    if (!fresh.isEmpty()) {
      DocumentEmbedder.putAll(store, fresh, documents.embedAll(fresh));
    }
    return out;
  }

  /**
   * The session's last turn as its latest stored observation says it, for a session another
   * instance captured last; empty when there is none or it cannot be read (the context is a help,
   * not a requirement).
   */
  private String storedTurn(SessionBook book, String session) {
    try {
      return book.lastObservation(session)
          .flatMap(store::get)
          .map(m -> ObservationDrafts.turn(m.origin(), m.content()))
          .orElse("");
    } catch (RuntimeException e) {
      return "";
    }
  }
}
