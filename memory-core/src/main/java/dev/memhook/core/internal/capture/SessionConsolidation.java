package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.Session;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.internal.compress.HeuristicConsolidator;
import dev.memhook.core.internal.compress.NearDuplicates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a session's observations into durable memories: asks the consolidator what is worth
 * keeping, then stores each as a new memory or, when the scope already holds a near-duplicate of
 * it, as a new version of that memory (so repeated sessions refine a memory instead of piling up
 * copies). Each consolidated memory names the observations it came from in the {@value #SOURCES}
 * attribute.
 *
 * <p>Used by one thread at a time (under the pipeline's processing lock).
 */
final class SessionConsolidation {

  private static final Logger LOG = LoggerFactory.getLogger(SessionConsolidation.class);

  /** Attribute: the ids of the observations a consolidated memory came from, space-separated. */
  static final String SOURCES = "memhook.sources";

  /** Attribute: the session a consolidated memory came from. */
  static final String FROM_SESSION = "memhook.consolidatedFrom";

  /** How many text hits are checked for a near-duplicate. */
  private static final int DUPLICATE_CANDIDATES = 10;

  private final MemoryStore store;
  private final Consolidator consolidator;
  private final ServiceWrites writes;

  SessionConsolidation(MemoryStore store, Consolidator consolidator, ServiceWrites writes) {
    this.store = Objects.requireNonNull(store, "store");
    this.consolidator = Objects.requireNonNull(consolidator, "consolidator");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  /** The session's stored observations, oldest first. */
  List<Memory> observations(List<MemoryId> ids) {
    List<Memory> out = new ArrayList<>(store.getAll(ids).values());
    out.sort(Comparator.comparing(Memory::occurredAt).thenComparing(Memory::id));
    return out;
  }

  /** A few sentences saying what the session did. */
  String summary(Session session, List<Memory> observations) {
    return HeuristicConsolidator.summarize(session, observations);
  }

  /**
   * Consolidates {@code observations} of {@code session}.
   *
   * @return how many memories were written or updated
   */
  int run(Session session, List<Memory> observations) {
    if (observations.isEmpty()) {
      return 0;
    }
    List<Consolidation> found;
    try {
      found = consolidator.consolidate(session, observations);
    } catch (Exception | LinkageError e) {
      LOG.warn(
          "memhook: consolidator {} failed on session {}; its observations stay as they are",
          consolidator.name(),
          session.id(),
          e);
      return 0;
    }
    if (found == null) {
      return 0;
    }
    Map<MemoryId, Memory> byId = new LinkedHashMap<>();
    observations.forEach(m -> byId.put(m.id(), m));
    int written = 0;
    for (Consolidation c : found) {
      try {
        if (store(session, c, byId)) {
          written++;
        }
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "memhook: skipping a consolidation of session {} that is not a valid memory: {}",
            session.id(),
            e.getMessage());
      }
    }
    return written;
  }

  private boolean store(Session session, Consolidation c, Map<MemoryId, Memory> observations) {
    List<Memory> sources = new ArrayList<>();
    for (MemoryId id : c.sources()) {
      Memory m = observations.get(id);
      if (m != null) {
        sources.add(m);
      }
    }
    Origin origin = sources.isEmpty() ? Origin.agent() : sources.get(0).origin();
    Instant at =
        sources.stream()
            .map(Memory::occurredAt)
            .max(Comparator.naturalOrder())
            .orElse(session.lastEventAt());
    Map<String, String> attributes = new LinkedHashMap<>();
    String sourceIds = ids(c.sources());
    if (!sourceIds.isEmpty()) {
      attributes.put(SOURCES, sourceIds);
    }
    // a session id is at most MAX_SESSION characters, within an attribute value
    attributes.put(FROM_SESSION, session.id());
    MemoryDraft draft =
        MemoryDraft.builder(session.scope(), c.content())
            .type(c.type())
            .title(c.title())
            .concepts(c.concepts())
            .files(c.files())
            .importance(c.importance())
            .sourceSession(session.id())
            .origin(origin)
            .attributes(attributes)
            .occurredAt(at)
            .build();
    Optional<Memory> twin = nearDuplicate(session.scope(), c);
    if (twin.isPresent()) {
      if (twin.get().content().strip().equals(c.content().strip())) {
        return false; // already held as it is: a new version would say nothing new
      }
      writes.update(twin.get().id(), draft);
    } else {
      writes.remember(draft);
    }
    return true;
  }

  private Optional<Memory> nearDuplicate(Scope scope, Consolidation c) {
    List<MemoryId> ids = new ArrayList<>();
    for (StoreHit hit : store.searchText(scope, c.content(), DUPLICATE_CANDIDATES).hits()) {
      ids.add(hit.id());
    }
    for (Memory m : store.getAll(ids).values()) {
      if (m.latest()
          && m.type() != MemoryType.OBSERVATION
          && NearDuplicates.nearDuplicate(m.content(), c.content())) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** The ids, space-separated, as many whole ids as the attribute limit holds. */
  private static String ids(List<MemoryId> ids) {
    StringBuilder sb = new StringBuilder();
    for (MemoryId id : ids) {
      if (sb.length() + id.value().length() + 1 > MemoryDraft.MAX_ATTRIBUTE_VALUE) {
        break;
      }
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(id.value());
    }
    return sb.toString();
  }
}
