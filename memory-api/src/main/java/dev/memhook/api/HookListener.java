package dev.memhook.api;

/**
 * The hook listener of earlier versions: now a {@link MemoryListener}, which has its {@code
 * injected} and {@code failed} methods and receives receipts, fetches and capture events besides.
 *
 * @deprecated implement {@link MemoryListener}; this name stays so existing listeners compile.
 */
@Deprecated
public interface HookListener extends MemoryListener {

  /** A listener that ignores everything. */
  HookListener NONE = new HookListener() {};
}
