package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.core.internal.compress.Corrections;
import dev.memhook.core.internal.compress.HeuristicConsolidator;
import dev.memhook.core.internal.compress.NearDuplicates;
import dev.memhook.core.internal.compress.SettingParts;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a session's observations into durable memories: asks the consolidator what is worth
 * keeping, then stores each as a new memory or, when the scope already holds a near-duplicate of it
 * (or, for a fact, a fact of the same title, such as a configuration file's settings read again),
 * as a new version of that memory (so repeated sessions refine a memory instead of piling up
 * copies). A restated project setting is matched by its title alone, and the parts of a file's
 * settings the session restated under titles it no longer gives are retired ({@link HeldSettings}).
 * Each consolidated memory names the observations it came from in the {@value #SOURCES} attribute;
 * a new version keeps the sources of the version it supersedes, so a memory refined over many
 * sessions still links to each. The ids are kept within the attribute value limit: when they do not
 * all fit, the newest are kept and {@value #SOURCES_TRUNCATED} says older ones were left out. A
 * consolidation that {@linkplain Consolidation#corrects() corrects} what the scope knew becomes a
 * new version of the memory it corrects ({@link Corrections}), so the old statement is superseded:
 * no longer recalled, offered or fetched as latest.
 *
 * <p>Asking ({@link #propose}) and storing ({@link #store}) are two steps, so that the worker can
 * drop what was proposed when closing the service cut capture short in between: the session is then
 * ended on the next open instead, and nothing of it is stored twice.
 *
 * <p>Used by one thread at a time (under the pipeline's processing lock).
 */
final class SessionConsolidation {

  private static final Logger LOG = LoggerFactory.getLogger(SessionConsolidation.class);

  /** Attribute: the ids of the observations a consolidated memory came from, space-separated. */
  static final String SOURCES = "memhook.sources";

  /**
   * Attribute: {@code "true"} when {@value #SOURCES} left out older sources to stay within {@link
   * MemoryDraft#MAX_ATTRIBUTE_VALUE}, in this version or one it supersedes.
   */
  static final String SOURCES_TRUNCATED = "memhook.sourcesTruncated";

  /** Attribute: the session this version of a consolidated memory came from. */
  static final String FROM_SESSION = "memhook.consolidatedFrom";

  /** How many of a scope's facts are listed to find the parts of a setting restated again. */
  private static final int FACTS_LISTED = 1_000;

  /** How many text hits are checked for a near-duplicate. */
  private static final int DUPLICATE_CANDIDATES = 10;

  private final MemoryStore store;
  private final Consolidator consolidator;
  private final ServiceWrites writes;
  private final Consumer<CaptureEvent> events;
  private final Clock clock;

  /**
   * @param events told of each memory retired ({@link CaptureEvent.Kind#MEMORY_FORGOTTEN})
   * @param clock when a retirement is said to have happened
   */
  SessionConsolidation(
      MemoryStore store,
      Consolidator consolidator,
      ServiceWrites writes,
      Consumer<CaptureEvent> events,
      Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.consolidator = Objects.requireNonNull(consolidator, "consolidator");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
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
   * What the consolidator keeps of {@code observations} of {@code session}: nothing when there are
   * none, or when it fails (logged). Stores nothing; see {@link #store}.
   */
  List<Consolidation> propose(Session session, List<Memory> observations) {
    if (observations.isEmpty()) {
      return List.of();
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
      return List.of();
    }
    return found == null ? List.of() : found;
  }

  /**
   * Stores what {@link #propose} found for {@code session}, each as a new memory or a new version
   * of its near-duplicate; one that is not a valid memory is logged and skipped.
   *
   * @param observations the observations {@code found} was proposed from
   * @return how many memories were written or updated
   */
  int store(Session session, List<Consolidation> found, List<Memory> observations) {
    Map<MemoryId, Memory> byId = new LinkedHashMap<>();
    observations.forEach(m -> byId.put(m.id(), m));
    HeldSettings held = HeldSettings.of(store, session.scope(), found);
    int written = 0;
    for (Consolidation c : found) {
      try {
        if (store(session, c, byId, held)) {
          written++;
        }
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "memhook: skipping a consolidation of session {} that is not a valid memory: {}",
            session.id(),
            e.getMessage());
      }
    }
    for (Memory m : held.unrestated()) {
      retire(session, m);
    }
    return written;
  }

  /**
   * What the scope holds of the project settings a session's consolidations restate ({@link
   * SettingParts#subject}): a setting's restatement replaces the held memory of its title, and
   * never a memory of another title, however alike (two parts of one file read alike: "alpha host:
   * …", "beta host: …"). A held memory of a subject restated under a title the session no longer
   * gives is {@linkplain #unrestated() unrestated}: a part of a file's settings a later read cut
   * differently, or the file restated whole before it was restated in parts. Left alone, it would
   * stay latest beside the new parts, with values the file may no longer hold.
   *
   * @param byTitle the latest consolidated facts of the restated subjects, by title (the newest,
   *     when two share one)
   * @param older held facts that share a title with a newer one, which a store written before
   *     titles were matched alone may hold: unrestated too
   * @param titles the titles the session restates, by subject
   */
  private record HeldSettings(
      Map<String, Memory> byTitle, List<Memory> older, Map<String, Set<String>> titles) {

    static HeldSettings of(MemoryStore store, Scope scope, List<Consolidation> found) {
      Map<String, Set<String>> titles = new HashMap<>();
      List<Consolidation> restating = new ArrayList<>();
      for (Consolidation c : found) {
        String title = c.title().strip();
        Optional<String> subject = SettingParts.subject(title);
        if (c.type() == MemoryType.FACT && subject.isPresent()) {
          titles.computeIfAbsent(subject.get(), k -> new HashSet<>()).add(title);
          restating.add(c);
        }
      }
      Map<String, Memory> byTitle = new HashMap<>();
      List<Memory> older = new ArrayList<>();
      if (restating.isEmpty()) {
        return new HeldSettings(byTitle, older, titles);
      }
      for (Memory m : facts(store, scope, restating)) {
        String title = m.title().strip();
        Optional<String> subject = SettingParts.subject(title);
        if (subject.isPresent()
            && titles.containsKey(subject.get())
            && m.attributes().containsKey(FROM_SESSION)) {
          Memory other = byTitle.get(title);
          if (other == null || m.occurredAt().isAfter(other.occurredAt())) {
            byTitle.put(title, m);
          }
          if (other != null) {
            older.add(other == byTitle.get(title) ? m : other);
          }
        }
      }
      return new HeldSettings(byTitle, older, titles);
    }

    /**
     * The latest facts of {@code scope} that may restate what {@code restating} does: the facts the
     * store lists first (up to {@value #FACTS_LISTED}) and the best text matches of each, in case
     * the scope holds more facts than that.
     */
    private static Collection<Memory> facts(
        MemoryStore store, Scope scope, List<Consolidation> restating) {
      Map<MemoryId, Memory> held = new LinkedHashMap<>();
      try {
        store
            .listByType(scope, List.of(MemoryType.FACT), FACTS_LISTED)
            .memories()
            .forEach(m -> held.put(m.id(), m));
      } catch (UnsupportedOperationException e) {
        // a store that cannot list its memories is searched by text alone
      }
      List<MemoryId> ids = new ArrayList<>();
      for (Consolidation c : restating) {
        for (StoreHit hit : store.searchText(scope, c.content(), DUPLICATE_CANDIDATES).hits()) {
          if (!held.containsKey(hit.id())) {
            ids.add(hit.id());
          }
        }
      }
      held.putAll(store.getAll(ids));
      held.values().removeIf(m -> !m.latest() || m.type() != MemoryType.FACT);
      return held.values();
    }

    /** The held memory of {@code c}'s title, which {@code c} replaces; empty when none is held. */
    Optional<Memory> twin(Consolidation c) {
      return Optional.ofNullable(byTitle.get(c.title().strip()));
    }

    /** Whether {@code c} restates a setting, and is matched by its title alone. */
    boolean restates(Consolidation c) {
      Optional<String> subject = SettingParts.subject(c.title().strip());
      return c.type() == MemoryType.FACT
          && subject.isPresent()
          && titles.containsKey(subject.get());
    }

    /** The held memories of restated subjects under a title the session no longer gives. */
    List<Memory> unrestated() {
      List<Memory> out = new ArrayList<>(older);
      byTitle.forEach(
          (title, m) -> {
            if (!titles.get(SettingParts.subject(title).orElseThrow()).contains(title)) {
              out.add(m);
            }
          });
      out.sort(Comparator.comparing(Memory::id));
      return out;
    }
  }

  /**
   * Forgets {@code m}, a restatement of a setting {@code session} restated without it, through the
   * service's forget of the memory alone (its audit record says why); a retirement that fails is
   * logged and the memory stays.
   */
  private void retire(Session session, Memory m) {
    String subject = SettingParts.subject(m.title().strip()).orElseThrow();
    try {
      // a title is at most MAX_TITLE characters and a session id MAX_SESSION: within MAX_REASON
      if (writes.retire(
          m.id(), subject + " restated by session " + session.id() + " without this part")) {
        events.accept(
            new CaptureEvent(
                CaptureEvent.Kind.MEMORY_FORGOTTEN,
                clock.instant(),
                session.scope(),
                session.id(),
                m.id(),
                "retired by capture: a part of settings restated again without it"));
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "memhook: could not retire {}, a part of settings restated again; it stays", m.id(), e);
    }
  }

  private boolean store(
      Session session, Consolidation c, Map<MemoryId, Memory> observations, HeldSettings held) {
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
    Optional<Memory> twin = held.restates(c) ? held.twin(c) : nearDuplicate(session.scope(), c);
    if (twin.isEmpty() && c.corrects()) {
      twin = corrected(session.scope(), c);
    }
    if (twin.isPresent() && twin.get().content().strip().equals(c.content().strip())) {
      return false; // already held as it is: a new version would say nothing new
    }
    Map<String, String> earlier = twin.map(Memory::attributes).orElse(Map.of());
    SourceIds sourceIds = sourceIds(earlier.get(SOURCES), c.sources());
    Map<String, String> attributes = new LinkedHashMap<>();
    if (!sourceIds.value().isEmpty()) {
      attributes.put(SOURCES, sourceIds.value());
    }
    if (sourceIds.truncated() || "true".equals(earlier.get(SOURCES_TRUNCATED))) {
      attributes.put(SOURCES_TRUNCATED, "true");
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
    if (twin.isPresent()) {
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
      // a setting's restatement is replaced by its title alone (HeldSettings), not by a statement
      // that reads like it
      if (m.latest()
          && m.type() != MemoryType.OBSERVATION
          && (sameFact(m, c)
              || (SettingParts.subject(m.title().strip()).isEmpty()
                  && NearDuplicates.nearDuplicate(m.content(), c.content())))) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether {@code c} restates the fact {@code m} under the same title: a fact's title names its
   * subject (the statement itself, or the configuration file whose settings it restates), so a file
   * read again with a changed value replaces what its earlier read said instead of standing beside
   * it.
   */
  private static boolean sameFact(Memory m, Consolidation c) {
    return m.type() == MemoryType.FACT
        && c.type() == MemoryType.FACT
        && m.title().strip().equals(c.title().strip());
  }

  /**
   * The memory {@code c}, a correction, replaces: {@link Corrections#target} among the scope's best
   * text matches for it, best first.
   */
  private Optional<Memory> corrected(Scope scope, Consolidation c) {
    List<MemoryId> ids = new ArrayList<>();
    for (StoreHit hit : store.searchText(scope, c.content(), DUPLICATE_CANDIDATES).hits()) {
      ids.add(hit.id());
    }
    Map<MemoryId, Memory> found = store.getAll(ids);
    List<Memory> ranked = new ArrayList<>();
    for (MemoryId id : ids) {
      Memory m = found.get(id);
      if (m != null) {
        ranked.add(m);
      }
    }
    return Corrections.target(c.content(), ranked);
  }

  /**
   * The value of {@value #SOURCES}, and whether it left ids out.
   *
   * @param value ids, space-separated, oldest first
   * @param truncated whether older ids were left out to keep within the attribute value limit
   */
  record SourceIds(String value, boolean truncated) {}

  /**
   * The sources of a new version: the ids of {@code earlier} (the superseded version's {@value
   * #SOURCES}, or null) and then {@code fresh}, each once and in the place it was last named, as
   * many of the newest as fit {@link MemoryDraft#MAX_ATTRIBUTE_VALUE}.
   */
  static SourceIds sourceIds(String earlier, List<MemoryId> fresh) {
    LinkedHashSet<String> all = new LinkedHashSet<>();
    if (earlier != null) {
      for (String id : earlier.split(" ")) {
        if (!id.isBlank()) {
          all.add(id);
        }
      }
    }
    for (MemoryId id : fresh) {
      all.remove(id.value());
      all.add(id.value());
    }
    List<String> ordered = new ArrayList<>(all);
    int first = ordered.size();
    int length = -1;
    while (first > 0
        && length + 1 + ordered.get(first - 1).length() <= MemoryDraft.MAX_ATTRIBUTE_VALUE) {
      first--;
      length += 1 + ordered.get(first).length();
    }
    return new SourceIds(String.join(" ", ordered.subList(first, ordered.size())), first > 0);
  }
}
