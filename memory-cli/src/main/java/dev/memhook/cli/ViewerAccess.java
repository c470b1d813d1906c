package dev.memhook.cli;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Who may use the viewer, and how a browser proves it: a browser cannot send the bearer header
 * every other endpoint of {@code memhook serve} requires, so the server hands out one-time login
 * codes (to whoever holds the token: printed at start, or asked for by {@code memhook view}); a
 * code, used once within {@link #LOGIN_CODE_LIFETIME}, opens a browser session named by an {@code
 * HttpOnly; SameSite=Strict; Path=/view} cookie, and each browser session has its own CSRF token
 * that every form carries.
 *
 * <p>The rules for a request, all of which the viewer applies ({@link ViewerEndpoint}): its {@code
 * Host} is {@code 127.0.0.1:PORT} or {@code localhost:PORT} ({@link #hostAllowed}), so a page of
 * another site whose name was rebound to 127.0.0.1 is refused; it carries a live session's cookie
 * ({@link #session}); a request that changes something is a POST whose {@code Origin} is the page's
 * own ({@link #sameOrigin}) and whose form carries the session's CSRF token ({@link
 * Session#csrfMatches}). Codes, session ids and CSRF tokens are 32 random bytes in hex and compared
 * in constant time.
 *
 * <p>Thread-safe: codes and sessions live in concurrent maps, for the server's lifetime at most.
 */
final class ViewerAccess {
  /** How long a login code stays usable: long enough to paste it, short enough to go stale. */
  static final Duration LOGIN_CODE_LIFETIME = Duration.ofMinutes(10);

  /** How long a browser session lasts from its login: a working day, then log in again. */
  static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  /** How many codes or sessions are kept at most; the oldest go first beyond it. */
  static final int MAX_KEPT = 64;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Charset UTF8 = StandardCharsets.UTF_8;

  /**
   * A browser session.
   *
   * @param id the cookie's value
   * @param csrf the token its forms carry
   * @param expires when it ends
   */
  record Session(String id, String csrf, Instant expires) {
    Session {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(csrf, "csrf");
      Objects.requireNonNull(expires, "expires");
    }

    /** Whether {@code given} (from a form) is this session's CSRF token. */
    boolean csrfMatches(String given) {
      return given != null && equal(given, csrf);
    }
  }

  private final int port;
  private final byte[] bearer;
  private final Clock clock;
  private final Map<String, Instant> codes = new ConcurrentHashMap<>();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /**
   * @param port the port the server listens on, which the {@code Host} must name
   * @param token the server's access token, which a request for a login code carries
   * @param clock what expiry is measured by
   */
  ViewerAccess(int port, String token, Clock clock) {
    this.port = port;
    this.bearer = ("Bearer " + Objects.requireNonNull(token, "token")).getBytes(UTF8);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The name of the session cookie: per port, so that two servers' sessions do not collide. */
  String cookieName() {
    return "memhook_view_" + port;
  }

  /** The URL that logs a browser in with a new one-time code. */
  String loginUrl() {
    String code = random();
    prune(codes, Function.identity(), clock.instant());
    codes.put(code, clock.instant().plus(LOGIN_CODE_LIFETIME));
    return "http://127.0.0.1:" + port + "/view/login?token=" + code;
  }

  /** Whether {@code authorization} is the server's bearer header, compared in constant time. */
  boolean bearerMatches(String authorization) {
    byte[] given = authorization == null ? new byte[0] : authorization.getBytes(UTF8);
    return MessageDigest.isEqual(given, bearer);
  }

  /** Whether a {@code Host} header names this server by loopback address or {@code localhost}. */
  boolean hostAllowed(String host) {
    return host != null && (host.equals("127.0.0.1:" + port) || host.equals("localhost:" + port));
  }

  /**
   * Whether {@code origin} is the origin of a page this server served under {@code host}, which
   * {@link #hostAllowed} admitted. A request without an {@code Origin} is not same-origin: the
   * browsers the viewer supports send it with every POST.
   */
  boolean sameOrigin(String origin, String host) {
    return origin != null && hostAllowed(host) && origin.equals("http://" + host);
  }

  /**
   * Spends a login code: a new browser session if {@code code} was handed out, is unused and has
   * not expired; the code is gone either way.
   */
  Optional<Session> login(String code) {
    if (code == null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    // the map's own lookup is not constant time, so the code is found by a constant-time compare
    String found = null;
    for (String known : codes.keySet()) {
      if (equal(known, code)) {
        found = known;
      }
    }
    Instant expires = found == null ? null : codes.remove(found);
    if (expires == null || !now.isBefore(expires)) {
      return Optional.empty();
    }
    prune(sessions, Session::expires, now);
    Session s = new Session(random(), random(), now.plus(SESSION_LIFETIME));
    sessions.put(s.id(), s);
    return Optional.of(s);
  }

  /** The live session a {@code Cookie} header names, if any. */
  Optional<Session> session(String cookieHeader) {
    if (cookieHeader == null) {
      return Optional.empty();
    }
    String wanted = cookieName() + "=";
    for (String part : cookieHeader.split(";")) {
      String c = part.strip();
      if (c.startsWith(wanted)) {
        String id = c.substring(wanted.length());
        for (Session s : sessions.values()) {
          if (equal(s.id(), id)) {
            return clock.instant().isBefore(s.expires()) ? Optional.of(s) : Optional.empty();
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The {@code Set-Cookie} value that names {@code session} in a browser. */
  String cookie(Session session) {
    return cookieName()
        + "="
        + session.id()
        + "; HttpOnly; SameSite=Strict; Path=/view; Max-Age="
        + SESSION_LIFETIME.toSeconds();
  }

  /** Drops what has expired and, past {@link #MAX_KEPT}, the entries that expire first. */
  private static <V> void prune(Map<String, V> map, Function<V, Instant> expiry, Instant now) {
    map.values().removeIf(v -> !now.isBefore(expiry.apply(v)));
    while (map.size() >= MAX_KEPT) {
      map.entrySet().stream()
          .min(Comparator.comparing(e -> expiry.apply(e.getValue())))
          .ifPresent(e -> map.remove(e.getKey()));
    }
  }

  private static boolean equal(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(UTF8), b.getBytes(UTF8));
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
