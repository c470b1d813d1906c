package dev.memhook.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the command prints, with every control character that a terminal would act on written as the
 * six visible characters {@code \}{@code u00XX} instead: the C0 controls (ESC among them, which
 * starts every escape sequence) other than tab and line feed (and carriage return, when {@code
 * keepCarriageReturn}, for stderr's progress line), DEL, and the C1 controls, which some terminals
 * take as escape sequences too. Memories hold text from tools and web pages, and a title or an
 * output that carries an escape sequence would otherwise set the terminal's title, rewrite what it
 * shows or, in terminals that allow it, its clipboard, when {@code memhook show} prints it.
 *
 * <p>JSON output passes unchanged in meaning: a JSON writer escapes C0 controls itself, and the
 * form written here for a C1 control is JSON's own escape of it. The stream is byte-oriented: it
 * finds C1 controls in UTF-8 (two bytes, {@code C2 80} to {@code C2 9F}) and in the ISO 8859
 * charsets (one byte, {@code 80} to {@code 9F}); in other charsets it escapes the C0 controls and
 * DEL only. Not thread-safe, as the {@link PrintStream} over it serialises its writes.
 */
final class ControlEscapes extends FilterOutputStream {

  private static final int NONE = -1;

  private final boolean utf8;
  private final boolean singleByteC1;
  private final boolean keepCarriageReturn;
  private int pendingLead = NONE;

  private ControlEscapes(OutputStream out, Charset charset, boolean keepCarriageReturn) {
    super(out);
    this.utf8 = charset.equals(StandardCharsets.UTF_8);
    this.singleByteC1 = charset.name().toUpperCase(Locale.ROOT).startsWith("ISO-8859-");
    this.keepCarriageReturn = keepCarriageReturn;
  }

  /**
   * {@code stream} (auto-flushing, in its own charset) printing through the escapes. Its {@link
   * PrintStream#checkError} reports {@code stream}'s errors too: a {@link PrintStream} records a
   * failed write (a broken pipe, a full disk) instead of throwing, and asks the stream under it for
   * its error only when that is a {@link PrintStream} itself, which this filter is not; without it
   * an export to a full disk would say it succeeded, and {@code memhook mcp} would not see that its
   * client stopped reading.
   */
  static PrintStream around(PrintStream stream, boolean keepCarriageReturn) {
    Charset charset = stream.charset();
    return new PrintStream(new ControlEscapes(stream, charset, keepCarriageReturn), true, charset) {
      @Override
      public boolean checkError() {
        return super.checkError() | stream.checkError(); // both: each flushes its own
      }
    };
  }

  /**
   * {@code text} with every control character written as {@code \}{@code u00XX}, line breaks and
   * tabs included: one line of a log file, which a reader shows with {@code cat} or {@code tail},
   * and which a message that quotes a payload must neither split nor use to drive the terminal.
   */
  static String oneLine(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  @Override
  public void write(int b) throws IOException {
    int u = b & 0xff;
    if (pendingLead != NONE) {
      pendingLead = NONE;
      if (u >= 0x80 && u <= 0x9f) {
        escape(u); // U+0080..U+009F: the code point is the continuation byte
        return;
      }
      out.write(0xc2);
    }
    if (utf8 && u == 0xc2) {
      pendingLead = u;
    } else if (control(u)) {
      escape(u);
    } else {
      out.write(u);
    }
  }

  /** Writes the runs of bytes that need nothing in one call each. */
  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    int run = off;
    for (int i = off; i < off + len; i++) {
      int u = b[i] & 0xff;
      if (pendingLead == NONE && !control(u) && !(utf8 && u == 0xc2)) {
        continue;
      }
      out.write(b, run, i - run);
      write(b[i]);
      run = i + 1;
    }
    out.write(b, run, off + len - run);
  }

  @Override
  public void close() throws IOException {
    if (pendingLead != NONE) {
      out.write(pendingLead);
      pendingLead = NONE;
    }
    super.close();
  }

  /** Whether byte {@code u}, outside a UTF-8 sequence, is a control character to escape. */
  private boolean control(int u) {
    return (u < 0x20 && !kept(u)) || u == 0x7f || (singleByteC1 && u >= 0x80 && u <= 0x9f);
  }

  private boolean kept(int u) {
    return u == '\n' || u == '\t' || (keepCarriageReturn && u == '\r');
  }

  private void escape(int u) throws IOException {
    out.write(String.format(Locale.ROOT, "\\u%04x", u).getBytes(StandardCharsets.US_ASCII));
  }
}
