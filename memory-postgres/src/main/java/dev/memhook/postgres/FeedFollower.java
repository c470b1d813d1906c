package dev.memhook.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that keeps this instance's replicas following PostgreSQL: it holds one connection of
 * the host's pool, {@code LISTEN}s on the store's channel, catches up the scopes a notification
 * names, checks every held scope's position each poll interval (which bounds the delay when a
 * notification is lost, or when a pooler does not pass them on; with no scope held it checks that
 * the connection still answers), prunes the feed, and reconnects.
 *
 * <h2>Design note</h2>
 *
 * On (re)connecting it first listens and only then catches every held scope up, so a change
 * committed in between is either caught up now or notified later: nothing falls in the gap. Catch-
 * ups are idempotent ({@link ScopeReplica}), so a change seen both ways is applied once in effect.
 * A failure on its connection marks PostgreSQL unreachable ({@link FeedHealth#lost}), drops the
 * connection and retries with a backoff from 50 ms doubling to 5 s; after a successful reconnect
 * and catch-up it marks it reachable again. When a caller marked it unreachable but the follower's
 * own connection still works (the caller's pool could not give a connection), the follower's next
 * round catches every held scope up and marks it reachable again.
 *
 * <p>{@link #close()} never interrupts the thread (an interrupt in the driver's socket read can
 * leave the connection unusable): the thread waits for notifications in slices of {@link
 * #SLICE_MILLIS} and checks whether it should stop between them; {@code close} waits for it to
 * stop, for a bounded time.
 *
 * <p>Thread-safe.
 */
final class FeedFollower implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FeedFollower.class);

  /** The longest one wait for notifications, so that {@link #close()} is noticed quickly. */
  static final int SLICE_MILLIS = 100;

  /**
   * How long one query on the follower's connection may wait for the server before the connection
   * is taken as dead: without it, a connection a firewall dropped silently would stall the follower
   * until the operating system gave up on the socket, while the status still said following.
   */
  static final int NETWORK_TIMEOUT_SECONDS = 30;

  private static final long MIN_BACKOFF_MILLIS = 50;
  private static final long MAX_BACKOFF_MILLIS = 5_000;

  private final DataSource dataSource;
  private final Schema schema;
  private final ChangeFeed feed;
  private final LocalReplicas replicas;
  private final FeedHealth health;
  private final long pollNanos;
  private final Duration retention;
  private final long pruneNanos;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition stopping = lock.newCondition();
  private volatile boolean closed;

  FeedFollower(
      DataSource dataSource,
      Schema schema,
      ChangeFeed feed,
      LocalReplicas replicas,
      FeedHealth health,
      Duration poll,
      Duration retention) {
    this.dataSource = dataSource;
    this.schema = schema;
    this.feed = feed;
    this.replicas = replicas;
    this.health = health;
    this.pollNanos = poll.toNanos();
    this.retention = retention;
    long quarter = retention.toNanos() / 4;
    this.pruneNanos =
        Math.max(TimeUnit.SECONDS.toNanos(1), Math.min(quarter, TimeUnit.MINUTES.toNanos(10)));
    this.thread = new Thread(this::run, "memhook-postgres-feed-" + schema.name());
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Stops following and gives the connection back; waits a bounded time for the thread. */
  @Override
  public void close() {
    closed = true;
    lock.lock();
    try {
      stopping.signalAll();
    } finally {
      lock.unlock();
    }
    if (Thread.currentThread() != thread) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        LOG.warn("{} did not stop within 10 s; it stops after its current query", thread.getName());
      }
    }
  }

  private void run() {
    Connection listening = null;
    long backoff = MIN_BACKOFF_MILLIS;
    long lastCheck = System.nanoTime();
    long lastPrune = System.nanoTime() - pruneNanos;
    while (!closed) {
      try {
        if (listening == null) {
          listening = listen();
          replicas.catchUpAll(listening);
          lastCheck = System.nanoTime();
          health.restored();
          backoff = MIN_BACKOFF_MILLIS;
        }
        PGNotification[] notes =
            listening.unwrap(PGConnection.class).getNotifications(SLICE_MILLIS);
        if (closed) {
          break;
        }
        if (notes != null && notes.length > 0) {
          Set<String> scopes = new HashSet<>();
          for (PGNotification note : notes) {
            scopes.add(note.getParameter());
          }
          replicas.catchUp(scopes, listening);
        }
        long now = System.nanoTime();
        if (now - lastCheck >= pollNanos) {
          if (!replicas.catchUpAll(listening) && !listening.isValid(NETWORK_TIMEOUT_SECONDS)) {
            throw new SQLException("the feed connection stopped answering", "08006");
          }
          lastCheck = now;
        }
        if (!health.reachable()) {
          // a caller could not reach PostgreSQL (a pool that could not connect, or was exhausted)
          // while this connection works: catch up and say so, or readers stay on the replicas
          replicas.catchUpAll(listening);
          health.restored();
        }
        if (now - lastPrune >= pruneNanos) {
          feed.prune(listening, retention);
          lastPrune = now;
        }
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          break;
        }
        health.lost(e);
        closeQuietly(listening);
        listening = null;
        pause(backoff);
        backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
      }
    }
    closeQuietly(listening);
  }

  private Connection listen() throws SQLException {
    Connection c = dataSource.getConnection();
    try {
      c.setAutoCommit(true);
      c.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_SECONDS * 1000);
      try (Statement s = c.createStatement()) {
        s.execute("LISTEN \"" + schema.channel() + '"');
      }
      return c;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c);
      throw e;
    }
  }

  private void pause(long millis) {
    lock.lock();
    try {
      long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
      while (!closed && nanos > 0) {
        nanos = stopping.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      closed = true; // interrupted by someone else: stop following
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }

  private static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      try (Statement s = c.createStatement()) {
        s.execute("UNLISTEN *"); // a pooled connection must not carry the registration on
      }
    } catch (SQLException | RuntimeException e) {
      // a broken connection: the pool discards it
    }
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      LOG.debug("closing the feed connection failed", e);
    }
  }
}
