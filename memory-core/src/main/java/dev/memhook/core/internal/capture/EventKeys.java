package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The duplicate key of an accepted event and the id of the observation it becomes.
 *
 * <p><b>Key scheme.</b> An event with a host id has the key {@code "id:" + sessionId.length() + ":"
 * + sessionId + ":" + eventId}: the id scoped by its session, since a host id is only known to be
 * unique within what one host sends, and two hosts (or two sessions of a host that numbers events
 * per session) can reuse one; a redelivery always comes with its own session. The length prefix
 * keeps session and event id from running into each other ({@code "a:b" + "c"} against {@code "a" +
 * "b:c"}). An event without one has the key {@code "digest:"} and the hex SHA-256 of the session
 * id, the hook type's wire name, the timestamp in epoch milliseconds and each data field in order,
 * every string prefixed with its length (-1 for an absent one) so no two field splits hash alike.
 * Project and working directory are the session's, not the event's, and are left out.
 *
 * <p>Keys are made from the scrubbed event ({@link EventScrub}), never the raw one: a key is stored
 * beside the event, and a digest over a raw low-entropy secret (a short password) would let whoever
 * reads the journal test guesses for it. The price is that two events differing only in a redacted
 * secret or beyond the cut count as one; what would be stored of them is identical anyway. An event
 * without a timestamp gets the clock's time when accepted, so its redelivery is not recognised by
 * the digest; hosts that redeliver should send an event id or a timestamp.
 *
 * <p><b>Observation id.</b> {@code "obs-"} and the first 20 bytes (160 bits) of SHA-256 over the
 * key's UTF-8, in lower-case base 32: 36 characters, a valid {@link MemoryId}, the same for the
 * same key on every run and machine, and not guessable without the key.
 *
 * <p>Stateless and thread-safe: each call clones a prepared digest.
 */
public final class EventKeys {

  /** The prefix of a key made from a host's event id. */
  public static final String ID_PREFIX = "id:";

  /** The prefix of a key made from the event's content. */
  public static final String DIGEST_PREFIX = "digest:";

  /** The prefix of every observation id. */
  public static final String OBSERVATION_PREFIX = "obs-";

  private static final int ID_BYTES = 20;
  private static final char[] BASE32 = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();
  private static final MessageDigest SHA_256 = sha256();

  private EventKeys() {}

  /**
   * The duplicate key of {@code event}, a scrubbed event with its timestamp set.
   *
   * @throws NullPointerException if the event or its timestamp is null
   */
  public static String key(LifecycleEvent event) {
    long millis = Objects.requireNonNull(event.timestamp(), "event.timestamp").toEpochMilli();
    String session = event.sessionId();
    if (event.eventId() != null) {
      return ID_PREFIX + session.length() + ":" + session + ":" + event.eventId();
    }
    Hasher h = new Hasher();
    h.string("memhook-event-key-v1");
    h.string(session);
    h.string(event.type().wireName());
    h.number(millis);
    EventData d = event.data();
    h.string(d.toolName());
    h.string(d.input());
    h.string(d.output());
    h.string(d.prompt());
    h.string(d.error());
    h.string(d.agentName());
    h.string(d.message());
    if (d.speaker() != null) {
      // only when present, so the keys of events without a speaker stay what they were
      h.string(d.speaker());
    }
    return DIGEST_PREFIX + HexFormat.of().formatHex(h.digest());
  }

  /** The id of the observation made from the event whose key is {@code key}. */
  public static MemoryId observationId(String key) {
    byte[] hash = newDigest().digest(key.getBytes(StandardCharsets.UTF_8));
    return MemoryId.of(OBSERVATION_PREFIX + base32(hash, ID_BYTES));
  }

  /** The first {@code bytes} of {@code hash} in base 32, five bits a character. */
  private static String base32(byte[] hash, int bytes) {
    StringBuilder out = new StringBuilder(bytes * 8 / 5 + 1);
    int buffer = 0;
    int bits = 0;
    for (int i = 0; i < bytes; i++) {
      buffer = (buffer << 8) | (hash[i] & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(BASE32[(buffer >>> (bits - 5)) & 31]);
        bits -= 5;
      }
    }
    if (bits > 0) {
      out.append(BASE32[(buffer << (5 - bits)) & 31]);
    }
    return out.toString();
  }

  /** Feeds strings and numbers to a digest, unambiguously, through a small buffer. */
  private static final class Hasher {
    private final MessageDigest digest = newDigest();
    private final byte[] buf = new byte[4096];
    private int n;

    void string(String s) {
      if (s == null) {
        number(-1);
        return;
      }
      number(s.length());
      for (int i = 0; i < s.length(); i++) {
        if (n + 2 > buf.length) {
          flush();
        }
        char c = s.charAt(i);
        buf[n++] = (byte) (c >>> 8);
        buf[n++] = (byte) c;
      }
    }

    void number(long value) {
      if (n + 8 > buf.length) {
        flush();
      }
      for (int shift = 56; shift >= 0; shift -= 8) {
        buf[n++] = (byte) (value >>> shift);
      }
    }

    byte[] digest() {
      flush();
      return digest.digest();
    }

    private void flush() {
      digest.update(buf, 0, n);
      n = 0;
    }
  }

  private static MessageDigest newDigest() {
    try {
      return (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("this JVM's SHA-256 cannot be cloned", e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
