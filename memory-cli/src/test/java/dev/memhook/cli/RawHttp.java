package dev.memhook.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bare HTTP/1.1 client over a socket to 127.0.0.1, for the viewer's header rules: unlike {@link
 * java.net.http.HttpClient} it sends any {@code Host} (or none) and never follows a redirect.
 */
final class RawHttp {
  private RawHttp() {}

  /**
   * A response.
   *
   * @param status the status code
   * @param headers each header name in lower case with its values in order
   * @param body the body as UTF-8
   */
  record Response(int status, Map<String, List<String>> headers, String body) {
    String header(String name) {
      List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
      return v == null ? null : v.get(0);
    }
  }

  /**
   * Sends one request to {@code 127.0.0.1:port}; {@code headers} are written as given (name, value,
   * name, value…), with {@code Content-Length} added for a body.
   */
  static Response send(int port, String method, String target, String body, String... headers)
      throws IOException {
    StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    for (int i = 0; i < headers.length; i += 2) {
      req.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      req.append("Content-Type: application/x-www-form-urlencoded\r\n");
      req.append("Content-Length: ").append(content.length).append("\r\n");
    }
    req.append("Connection: close\r\n\r\n");
    try (Socket s = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port)) {
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.UTF_8));
      out.write(content);
      out.flush();
      InputStream in = s.getInputStream();
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int end = all.indexOf("\r\n\r\n");
      String[] lines = all.substring(0, end).split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      Map<String, List<String>> h = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        h.computeIfAbsent(
                lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                k -> new ArrayList<>())
            .add(lines[i].substring(colon + 1).strip());
      }
      return new Response(status, h, all.substring(end + 4));
    }
  }
}
