package dev.memhook.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy on loopback in front of the test PostgreSQL, which a test can cut (every connection
 * through it reset, new ones closed at once, as when the network or the server goes away) and
 * restore, without touching the server the other tests share.
 *
 * <p>Thread-safe. {@link #close()} stops it.
 */
final class CuttableProxy implements AutoCloseable {
  private static final Pattern URL =
      Pattern.compile("jdbc:postgresql://([^/:,]+)(?::(\\d+))?/(.*)");

  private final String targetHost;
  private final int targetPort;
  private final String rest;
  private final ServerSocket server;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean cut;

  /** A proxy to the server of {@code jdbcUrl}, a single-host PostgreSQL JDBC URL. */
  CuttableProxy(String jdbcUrl) throws IOException {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a single-host PostgreSQL JDBC URL: " + jdbcUrl);
    }
    this.targetHost = m.group(1);
    this.targetPort = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
    this.rest = m.group(3);
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.acceptor = new Thread(this::accept, "test-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The JDBC URL that goes through the proxy. */
  String url() {
    return "jdbc:postgresql://127.0.0.1:" + server.getLocalPort() + "/" + rest;
  }

  /** Resets every connection through the proxy and refuses new ones until {@link #restore()}. */
  void cut() {
    cut = true;
    for (Socket s : open) {
      closeQuietly(s);
    }
    open.clear();
  }

  void restore() {
    cut = false;
  }

  @Override
  public void close() {
    cut();
    closeQuietly(server);
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      try {
        Socket upstream = new Socket(targetHost, targetPort);
        open.add(client);
        open.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        closeQuietly(client);
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side went away: close both
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "test-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // already gone
    }
  }
}
