package dev.memhook.core;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The store configurations that tests above the store (hook, tool) run against, each a named way to
 * open a new store. A test class takes them as {@code @ParameterizedClass(name =
 * "{0}") @MethodSource("dev.memhook.core.TestStores#all")}, so a new store joins every such test by
 * joining {@link #all()}.
 */
public final class TestStores {

  /**
   * A named store configuration.
   *
   * @param name what test names show
   * @param onDisk whether the store keeps its data on disk, where every write costs a commit: tests
   *     that write much run fewer cases on it
   * @param opener opens a new, empty, unattached store in the given (new, empty) directory, which a
   *     store that needs none ignores
   */
  public record Kind(String name, boolean onDisk, Function<Path, MemoryStore> opener) {

    /**
     * A new, empty, unattached store, independent of every other this returns: it is kept in a new
     * directory under {@code dir} (a test's {@code @TempDir}), if it keeps anything on disk.
     */
    public MemoryStore open(Path dir) {
      try {
        return opener.apply(Files.createTempDirectory(dir, name + "-"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** Lucene on a heap directory, as {@code Memhook.builder().inMemory()} builds it. */
  public static final Kind LUCENE_HEAP =
      new Kind("lucene-heap", false, dir -> LuceneMemoryStore.inMemory());

  /**
   * Lucene on disk with its defaults (a commit per write), as {@code
   * Memhook.builder().directory(dir)} builds it.
   */
  public static final Kind LUCENE_DISK =
      new Kind("lucene-disk", true, dir -> LuceneMemoryStore.builder().directory(dir).build());

  private TestStores() {}

  /** Every configuration. */
  public static Stream<Kind> all() {
    return Stream.of(LUCENE_HEAP, LUCENE_DISK);
  }
}
