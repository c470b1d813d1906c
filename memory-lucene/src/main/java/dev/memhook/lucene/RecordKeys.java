package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key of each memory's record: what makes a forget take effect at once. Every memory record the
 * store writes is encrypted with a key of that memory's own ({@link RecordCipher}); the keys live
 * here, outside Lucene's segments, in small files that are cheap to rewrite. A forget destroys the
 * memory's key, and the record left in a segment until the purge rewrites that segment is noise.
 *
 * <h2>Design note</h2>
 *
 * <p><b>Layout.</b> The directory {@value #DIRECTORY} inside the index directory holds up to
 * {@value #SHARDS} shard files {@code NN.keys}: an 8-byte header, then one entry per key: the first
 * 16 bytes of the SHA-256 of the memory id (ids are ASCII), the 16-byte AES key, and the CRC-32C of
 * those 32 bytes. A memory's shard is the first byte of its hash modulo {@value #SHARDS}, so a
 * shard holds about one in {@value #SHARDS} keys and rewriting it costs that share of the key
 * bytes, whatever the store's size. Keyed by a hash, the files do not name the memories; two ids
 * whose hashes collide in 128 bits are not a practical concern, and a record opened with another
 * memory's key fails its authentication rather than reading wrong.
 *
 * <p><b>A new key</b> is appended to its shard (no fsync); {@link #sync()} forces every shard
 * appended to since the last call, and the write path calls it before every Lucene commit, so no
 * committed record's key is lost to a crash. A key a crash loses before its record was committed is
 * harmless. A torn entry at a shard's end (a crash during an append) is dropped on open; a damaged
 * entry anywhere else fails a writable open (the keys are the only copy); a read-only open keeps
 * the keys before the damage, and the records whose keys are lost are reported unreadable.
 *
 * <p><b>Destroying keys</b> rewrites each affected shard without them: a new file, forced, then
 * atomically moved over the old one and the directory forced. When {@link #destroy} returns, no
 * file of the directory holds the keys, and the records they sealed cannot be read from the
 * segments' bytes.
 *
 * <p><b>In memory</b> (an index on a heap directory) the same tables are kept with no files. Open
 * read-only, the keys are read and nothing is written.
 *
 * <p>Thread-safe: each shard is guarded by its own monitor.
 */
final class RecordKeys implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RecordKeys.class);

  /** The directory, inside the index directory, that holds the shards. */
  static final String DIRECTORY = "memhook-keys";

  /** Shard files; each holds the keys of the ids whose hash starts with its number. */
  static final int SHARDS = 64;

  static final int KEY_BYTES = 16;
  static final int HASH_BYTES = 16;
  private static final int ENTRY_BYTES = HASH_BYTES + KEY_BYTES + 4;
  private static final byte[] HEADER = "MHKEYS01".getBytes(StandardCharsets.US_ASCII);
  private static final String SUFFIX = ".keys";
  private static final String TEMP_SUFFIX = ".keys.tmp";

  private final Path directory;
  private final boolean readOnly;
  private final Shard[] shards = new Shard[SHARDS];
  private final SecureRandom random = new SecureRandom();

  /** The hashes whose keys this instance destroyed; guarded by itself. */
  private final Set<Hash> destroyed = new HashSet<>();

  private RecordKeys(Path directory, boolean readOnly) {
    this.directory = directory;
    this.readOnly = readOnly;
    for (int i = 0; i < SHARDS; i++) {
      shards[i] = new Shard(i);
    }
  }

  /** Keys kept on the heap only, for an index on a heap directory. */
  static RecordKeys inMemory() {
    return new RecordKeys(null, false);
  }

  /**
   * Opens the keys of the index at {@code indexDirectory}, creating their directory if needed
   * (unless {@code readOnly}), and deletes what a rewrite cut short by a crash left.
   *
   * @throws IOException if a shard cannot be read or holds a damaged entry before its end
   */
  static RecordKeys open(Path indexDirectory, boolean readOnly) throws IOException {
    Path dir = indexDirectory.resolve(DIRECTORY);
    RecordKeys keys = new RecordKeys(dir, readOnly);
    if (!Files.isDirectory(dir)) {
      if (readOnly) {
        return keys; // an index written before records were sealed, or an empty one
      }
      Files.createDirectories(dir);
      forceDirectory(indexDirectory);
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(TEMP_SUFFIX) && !readOnly) {
          Files.deleteIfExists(file);
        } else if (name.endsWith(SUFFIX)) {
          int shard = shardNumber(name);
          if (shard >= 0) {
            keys.shards[shard].load(file);
          }
        }
      }
    }
    return keys;
  }

  /** The first {@value #HASH_BYTES} bytes of the SHA-256 of {@code id}. */
  static byte[] hash(MemoryId id) {
    try {
      byte[] full =
          MessageDigest.getInstance("SHA-256")
              .digest(id.value().getBytes(StandardCharsets.US_ASCII));
      return Arrays.copyOf(full, HASH_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * Whether this instance destroyed the key of {@code id}: a document of it that a searcher opened
   * before the forget still sees is forgotten, not damaged.
   */
  boolean destroyed(MemoryId id) {
    synchronized (destroyed) {
      return destroyed.contains(new Hash(hash(id)));
    }
  }

  /** The key of {@code id}, if it has one (a forgotten memory has none). */
  Optional<byte[]> existing(MemoryId id) {
    byte[] hash = hash(id);
    Shard shard = shardOf(hash);
    synchronized (shard) {
      byte[] key = shard.table.get(new Hash(hash));
      return key == null ? Optional.empty() : Optional.of(key.clone());
    }
  }

  /**
   * The key of {@code id}, made and appended to its shard if it has none. Not durable until {@link
   * #sync()}.
   *
   * @throws UncheckedIOException if appending failed
   * @throws IllegalStateException if the keys were opened read-only
   */
  byte[] keyFor(MemoryId id) {
    if (readOnly) {
      throw new IllegalStateException("the record keys are open read-only");
    }
    byte[] hash = hash(id);
    Shard shard = shardOf(hash);
    synchronized (shard) {
      byte[] key = shard.table.get(new Hash(hash));
      if (key == null) {
        key = new byte[KEY_BYTES];
        random.nextBytes(key);
        shard.append(hash, key);
        shard.table.put(new Hash(hash), key);
      }
      return key.clone();
    }
  }

  /** Forces every shard appended to since the last call; a no-op in memory. */
  void sync() throws IOException {
    for (Shard shard : shards) {
      synchronized (shard) {
        shard.force();
      }
    }
  }

  /**
   * Destroys the keys of {@code ids} (those that have one): when this returns, no shard file holds
   * them. Idempotent.
   *
   * @return how many keys were destroyed
   */
  int destroy(Collection<MemoryId> ids) throws IOException {
    if (readOnly) {
      throw new IllegalStateException("the record keys are open read-only");
    }
    TreeMap<Integer, List<Hash>> byShard = new TreeMap<>();
    for (MemoryId id : ids) {
      byte[] hash = hash(id);
      synchronized (destroyed) {
        destroyed.add(new Hash(hash));
      }
      byShard.computeIfAbsent(shardIndex(hash), s -> new ArrayList<>()).add(new Hash(hash));
    }
    int destroyed = 0;
    for (var e : byShard.entrySet()) {
      Shard shard = shards[e.getKey()];
      synchronized (shard) {
        int before = shard.table.size();
        e.getValue().forEach(shard.table::remove);
        if (shard.table.size() != before) {
          destroyed += before - shard.table.size();
          shard.rewrite();
        }
      }
    }
    return destroyed;
  }

  /** How many keys there are. */
  long size() {
    long n = 0;
    for (Shard shard : shards) {
      synchronized (shard) {
        n += shard.table.size();
      }
    }
    return n;
  }

  /** Closes the shard files (what {@link #sync()} has not forced may be lost). Idempotent. */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (Shard shard : shards) {
      synchronized (shard) {
        try {
          shard.closeChannel();
        } catch (IOException e) {
          failure = failure == null ? e : failure;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private Shard shardOf(byte[] hash) {
    return shards[shardIndex(hash)];
  }

  private static int shardIndex(byte[] hash) {
    return (hash[0] & 0xff) % SHARDS;
  }

  private static int shardNumber(String name) {
    String digits = name.substring(0, name.length() - SUFFIX.length());
    if (digits.length() != 2) {
      return -1;
    }
    try {
      int n = Integer.parseInt(digits, 16);
      return n < SHARDS ? n : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void forceDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private static int crc(byte[] hash, byte[] key) {
    CRC32C crc = new CRC32C();
    crc.update(hash);
    crc.update(key);
    return (int) crc.getValue();
  }

  /** A memory id's hash as a map key. */
  private record Hash(long high, long low) {
    Hash(byte[] hash) {
      this(ByteBuffer.wrap(hash, 0, 8).getLong(), ByteBuffer.wrap(hash, 8, 8).getLong());
    }

    byte[] bytes() {
      return ByteBuffer.allocate(HASH_BYTES).putLong(high).putLong(low).array();
    }
  }

  /** One shard: its keys and, on disk, its file. Guarded by its own monitor. */
  private final class Shard {
    private final int number;
    private final HashMap<Hash, byte[]> table = new HashMap<>();
    private FileChannel channel;
    private boolean unforced;

    Shard(int number) {
      this.number = number;
    }

    Path file() {
      return directory.resolve(String.format(Locale.ROOT, "%02x", number) + SUFFIX);
    }

    void load(Path file) throws IOException {
      byte[] bytes = Files.readAllBytes(file);
      if (bytes.length < HEADER.length
          || !Arrays.equals(Arrays.copyOf(bytes, HEADER.length), HEADER)) {
        if (bytes.length < HEADER.length
            && Arrays.equals(bytes, Arrays.copyOf(HEADER, bytes.length))) {
          return; // a header cut short by a crash while the shard was created: no key yet
        }
        if (readOnly) {
          LOG.warn("the record key file {} has no valid header; its keys are left out", file);
          return;
        }
        throw new IOException("the record key file " + file + " has no valid header");
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes, HEADER.length, bytes.length - HEADER.length);
      buffer.order(ByteOrder.BIG_ENDIAN);
      while (buffer.remaining() >= ENTRY_BYTES) {
        byte[] hash = new byte[HASH_BYTES];
        byte[] key = new byte[KEY_BYTES];
        buffer.get(hash).get(key);
        int crc = buffer.getInt();
        if (crc != crc(hash, key)) {
          if (buffer.remaining() == 0) {
            break; // torn last entry: its record was never committed
          }
          if (readOnly) {
            // salvage: the keys before the damage; the records of the rest are reported unreadable
            LOG.warn(
                "the record key file {} is damaged at byte {}; the keys after it are left out",
                file,
                buffer.position() - ENTRY_BYTES);
            break;
          }
          throw new IOException(
              "the record key file "
                  + file
                  + " is damaged at byte "
                  + (buffer.position() - ENTRY_BYTES)
                  + "; the memories whose keys it held cannot be read");
        }
        table.put(new Hash(hash), key);
      }
    }

    void append(byte[] hash, byte[] key) {
      if (directory == null) {
        return;
      }
      try {
        if (channel == null) {
          boolean created = !Files.exists(file());
          channel =
              FileChannel.open(
                  file(),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.APPEND);
          if (channel.size() == 0) {
            writeFully(channel, ByteBuffer.wrap(HEADER));
          }
          if (created) {
            channel.force(true);
            forceDirectory(directory);
          }
        }
        ByteBuffer entry = ByteBuffer.allocate(ENTRY_BYTES);
        entry.put(hash).put(key).putInt(crc(hash, key)).flip();
        writeFully(channel, entry);
        unforced = true;
      } catch (IOException e) {
        throw new UncheckedIOException(
            "could not append a record key to " + file() + ": " + e.getMessage(), e);
      }
    }

    void force() throws IOException {
      if (unforced && channel != null) {
        channel.force(false);
        unforced = false;
      }
    }

    void rewrite() throws IOException {
      if (directory == null) {
        return;
      }
      closeChannel();
      Path temp = directory.resolve(file().getFileName() + ".tmp");
      ByteBuffer all = ByteBuffer.allocate(HEADER.length + table.size() * ENTRY_BYTES);
      all.put(HEADER);
      for (var e : table.entrySet()) {
        byte[] hash = e.getKey().bytes();
        all.put(hash).put(e.getValue()).putInt(crc(hash, e.getValue()));
      }
      all.flip();
      try (FileChannel out =
          FileChannel.open(
              temp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        writeFully(out, all);
        out.force(true);
      }
      Files.move(temp, file(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      forceDirectory(directory);
    }

    void closeChannel() throws IOException {
      if (channel != null) {
        try {
          force();
        } finally {
          channel.close();
          channel = null;
        }
      }
    }
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }
}
