package dev.memhook.lucene;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A view of the real file system through which nothing can be written, the way a directory without
 * write permission or a read-only mount refuses writes: for tests that must see a directory that
 * cannot be written while they run as root (as CI does), where {@code chmod} changes nothing.
 *
 * <p>Reads go to the real files (a file channel is the real one, so Lucene can memory-map it);
 * every write (opening for write, creating, deleting, moving, setting attributes) is refused as
 * {@link Refusal} says. As the operating system does, creating what already exists fails with
 * {@link FileAlreadyExistsException} before the write is refused.
 */
final class UnwritableFileSystem extends FileSystem {

  /** How a directory that cannot be written shows it. */
  enum Refusal {
    /**
     * No write permission, as a {@code chmod a-w} directory for a user other than root: an access
     * check for writing fails, and writes throw {@link AccessDeniedException}.
     */
    NO_WRITE_PERMISSION(true, false),
    /**
     * A read-only mount: an access check for writing fails, the file store says it is read-only,
     * and writes throw a {@link FileSystemException} whose reason is the one the JDK gives for
     * {@code EROFS}.
     */
    READ_ONLY_MOUNT(true, true),
    /**
     * Permission checks that pass but writes that are denied (an ACL or a security module the
     * access check does not see, or permissions changed after the check): writes throw {@link
     * AccessDeniedException}.
     */
    DENIED_AFTER_CHECK(false, false),
    /**
     * A read-only file system provider that answers access checks as if it could write, and refuses
     * writes with the unchecked {@link ReadOnlyFileSystemException}, as NIO file systems other than
     * the default one do.
     */
    READ_ONLY_PROVIDER(false, true);

    final boolean failsAccessCheck;
    final boolean readOnlyFileSystem;

    Refusal(boolean failsAccessCheck, boolean readOnlyFileSystem) {
      this.failsAccessCheck = failsAccessCheck;
      this.readOnlyFileSystem = readOnlyFileSystem;
    }
  }

  private final FileSystem real;
  private final Refusal refusal;
  private final Provider provider = new Provider();

  private UnwritableFileSystem(FileSystem real, Refusal refusal) {
    this.real = real;
    this.refusal = refusal;
  }

  /** {@code path} (a path of the default file system) seen through a view that refuses writes. */
  static Path view(Path path, Refusal refusal) {
    return new UnwritablePath(new UnwritableFileSystem(path.getFileSystem(), refusal), path);
  }

  private Path wrap(Path p) {
    return p == null ? null : new UnwritablePath(this, p);
  }

  private static Path unwrap(Path p) {
    return p instanceof UnwritablePath u ? u.real : p;
  }

  private void refuse(Path p) throws IOException {
    switch (refusal) {
      case NO_WRITE_PERMISSION:
      case DENIED_AFTER_CHECK:
        throw new AccessDeniedException(p.toString());
      case READ_ONLY_MOUNT:
        throw new FileSystemException(p.toString(), null, "Read-only file system");
      case READ_ONLY_PROVIDER:
        throw new ReadOnlyFileSystemException();
    }
    throw new AssertionError(refusal);
  }

  @Override
  public FileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    throw new UnsupportedOperationException("the default file system cannot be closed");
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return refusal.readOnlyFileSystem;
  }

  @Override
  public String getSeparator() {
    return real.getSeparator();
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    List<Path> roots = new ArrayList<>();
    real.getRootDirectories().forEach(r -> roots.add(wrap(r)));
    return roots;
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    List<FileStore> stores = new ArrayList<>();
    real.getFileStores().forEach(s -> stores.add(new Store(s)));
    return stores;
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return real.supportedFileAttributeViews();
  }

  @Override
  public Path getPath(String first, String... more) {
    return wrap(real.getPath(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher matcher = real.getPathMatcher(syntaxAndPattern);
    return p -> matcher.matches(unwrap(p));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    return real.getUserPrincipalLookupService();
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("no watching through an unwritable view");
  }

  /** The provider: reads pass through, writes are refused. */
  private final class Provider extends FileSystemProvider {
    private FileSystemProvider real(Path p) {
      return unwrap(p).getFileSystem().provider();
    }

    @Override
    public String getScheme() {
      return "unwritable";
    }

    /** The view is reached through the paths it wraps, never by a URI of its scheme. */
    private static final String NO_URIS =
        "an unwritable view is reached through its wrapped paths, not by URI";

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
      throw new UnsupportedOperationException(NO_URIS);
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
      throw new UnsupportedOperationException(NO_URIS);
    }

    @Override
    public Path getPath(URI uri) {
      throw new UnsupportedOperationException(NO_URIS);
    }

    @Override
    public SeekableByteChannel newByteChannel(
        Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      checkReadOnly(path, options);
      return real(path).newByteChannel(unwrap(path), options, attrs);
    }

    @Override
    public FileChannel newFileChannel(
        Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      checkReadOnly(path, options);
      return real(path).newFileChannel(unwrap(path), options, attrs);
    }

    private void checkReadOnly(Path path, Set<? extends OpenOption> options) throws IOException {
      if (options.contains(StandardOpenOption.CREATE_NEW) && Files.exists(unwrap(path))) {
        throw new FileAlreadyExistsException(path.toString());
      }
      for (StandardOpenOption write :
          List.of(
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND,
              StandardOpenOption.CREATE,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.DELETE_ON_CLOSE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        if (options.contains(write)) {
          refuse(path);
        }
      }
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(
        Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
      DirectoryStream<Path> entries =
          real(dir).newDirectoryStream(unwrap(dir), p -> filter.accept(wrap(p)));
      return new DirectoryStream<>() {
        @Override
        public Iterator<Path> iterator() {
          Iterator<Path> it = entries.iterator();
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              return it.hasNext();
            }

            @Override
            public Path next() {
              return wrap(it.next());
            }
          };
        }

        @Override
        public void close() throws IOException {
          entries.close();
        }
      };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
      if (Files.exists(unwrap(dir))) {
        throw new FileAlreadyExistsException(dir.toString());
      }
      refuse(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
      refuse(path);
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
      refuse(target);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
      refuse(source);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
      return real(path).isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
      return real(path).isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
      return new Store(real(path).getFileStore(unwrap(path)));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
      real(path).checkAccess(unwrap(path), modes);
      if (refusal.failsAccessCheck && List.of(modes).contains(AccessMode.WRITE)) {
        throw new AccessDeniedException(path.toString());
      }
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(
        Path path, Class<V> type, LinkOption... options) {
      return null; // attribute views can write; reading goes through readAttributes
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(
        Path path, Class<A> type, LinkOption... options) throws IOException {
      return real(path).readAttributes(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
        throws IOException {
      return real(path).readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
        throws IOException {
      refuse(path);
    }
  }

  /** A file store that says whether it is read-only as the refusal does. */
  private final class Store extends FileStore {
    private final FileStore real;

    Store(FileStore real) {
      this.real = real;
    }

    @Override
    public String name() {
      return real.name();
    }

    @Override
    public String type() {
      return real.type();
    }

    @Override
    public boolean isReadOnly() {
      return refusal.readOnlyFileSystem;
    }

    @Override
    public long getTotalSpace() throws IOException {
      return real.getTotalSpace();
    }

    @Override
    public long getUsableSpace() throws IOException {
      return real.getUsableSpace();
    }

    @Override
    public long getUnallocatedSpace() throws IOException {
      return real.getUnallocatedSpace();
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
      return real.supportsFileAttributeView(type);
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
      return real.supportsFileAttributeView(name);
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
      return real.getFileStoreAttributeView(type);
    }

    @Override
    public Object getAttribute(String attribute) throws IOException {
      return real.getAttribute(attribute);
    }
  }

  /** A path of the view: the real path, answering to the view's file system. */
  private static final class UnwritablePath implements Path {
    private final UnwritableFileSystem fs;
    private final Path real;

    UnwritablePath(UnwritableFileSystem fs, Path real) {
      this.fs = fs;
      this.real = real;
    }

    @Override
    public FileSystem getFileSystem() {
      return fs;
    }

    @Override
    public boolean isAbsolute() {
      return real.isAbsolute();
    }

    @Override
    public Path getRoot() {
      return fs.wrap(real.getRoot());
    }

    @Override
    public Path getFileName() {
      return fs.wrap(real.getFileName());
    }

    @Override
    public Path getParent() {
      return fs.wrap(real.getParent());
    }

    @Override
    public int getNameCount() {
      return real.getNameCount();
    }

    @Override
    public Path getName(int index) {
      return fs.wrap(real.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
      return fs.wrap(real.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
      return real.startsWith(unwrap(other));
    }

    @Override
    public boolean endsWith(Path other) {
      return real.endsWith(unwrap(other));
    }

    @Override
    public Path normalize() {
      return fs.wrap(real.normalize());
    }

    @Override
    public Path resolve(Path other) {
      return fs.wrap(real.resolve(unwrap(other)));
    }

    @Override
    public Path relativize(Path other) {
      return fs.wrap(real.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
      return real.toUri();
    }

    @Override
    public Path toAbsolutePath() {
      return fs.wrap(real.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
      return fs.wrap(real.toRealPath(options));
    }

    @Override
    public WatchKey register(
        WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
      throw new UnsupportedOperationException("no watching through an unwritable view");
    }

    @Override
    public int compareTo(Path other) {
      return real.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof UnwritablePath p && p.fs == fs && p.real.equals(real);
    }

    @Override
    public int hashCode() {
      return Objects.hash(System.identityHashCode(fs), real);
    }

    @Override
    public String toString() {
      return real.toString();
    }
  }
}
