package dev.memhook.postgres;

import dev.memhook.api.Scope;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.util.List;
import java.util.Set;

/**
 * Text and related search run in PostgreSQL, for {@link TextSearch#DATABASE} and for a store not
 * attached yet (which has no replicas): the query analysed as the stored terms were, one statement
 * each, nothing asked of the database when the query has no term or key.
 *
 * <p>Thread-safe.
 */
final class DatabaseSearch {
  private final Jdbc jdbc;
  private final MemoryReads reads;

  DatabaseSearch(Jdbc jdbc, MemoryReads reads) {
    this.jdbc = jdbc;
    this.reads = reads;
  }

  TextHits text(Scope scope, String query, int k) {
    List<String> terms = TextTerms.queryTerms(query);
    if (terms.isEmpty()) {
      return TextHits.none();
    }
    return jdbc.read(
        "search the text of scope " + scope.value(), c -> reads.searchText(c, scope, terms, k));
  }

  List<StoreHit> related(Scope scope, Set<String> concepts, Set<String> files, int k) {
    List<String> conceptKeys = RowWrites.conceptKeys(concepts);
    List<String> fileKeys = RowWrites.fileKeys(files);
    if (conceptKeys.isEmpty() && fileKeys.isEmpty()) {
      return List.of();
    }
    return jdbc.read(
        "search related memories of scope " + scope.value(),
        c -> reads.searchRelated(c, scope, conceptKeys, fileKeys, k));
  }
}
