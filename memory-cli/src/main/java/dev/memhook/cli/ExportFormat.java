package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON Lines file {@code export} writes and {@code import} reads: a header line, then one line
 * per memory version and one per forget record, each an object whose {@value #RECORD} field says
 * which: {@code {"record":"header","format":"memhook-export","version":1}}, {@code
 * {"record":"memory",…the memory's fields}} and {@code {"record":"forgotten",…}}. Field names are
 * those of {@link JsonRecords}. Stateless.
 */
final class ExportFormat {
  static final String RECORD = "record";
  static final String HEADER = "header";
  static final String MEMORY = "memory";
  static final String FORGOTTEN = "forgotten";
  static final String FORMAT = "memhook-export";
  static final int VERSION = 1;

  private ExportFormat() {}

  static ObjectNode header() {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put(RECORD, HEADER);
    n.put("format", FORMAT);
    n.put("version", VERSION);
    return n;
  }

  /** {@code body} with the record kind first. */
  static ObjectNode tagged(String kind, ObjectNode body) {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put(RECORD, kind);
    n.setAll(body);
    return n;
  }
}
