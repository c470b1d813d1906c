package dev.memhook.examples;

import dev.memhook.api.trace.InjectionReceipt;
import java.util.List;

/** The demo's account of a failed story: what the hook's receipts say, a line each. */
final class ReceiptLines {

  private ReceiptLines() {}

  /** Each attempt's recall and gate, then each candidate with its decision and why. */
  static String of(List<InjectionReceipt> receipts) {
    StringBuilder why = new StringBuilder();
    for (InjectionReceipt r : receipts) {
      why.append(r.phase())
          .append(": recall ")
          .append(r.recall().status())
          .append(" ")
          .append(r.recall().detail())
          .append(", gate ")
          .append(r.gate().status())
          .append(" ")
          .append(r.gate().detail())
          .append('\n');
      r.candidates()
          .forEach(
              c ->
                  why.append("  ")
                      .append(c.id())
                      .append(' ')
                      .append(c.decision())
                      .append(": ")
                      .append(c.detail())
                      .append('\n'));
    }
    return why.length() == 0 ? "the hook made no injection attempt" : why.toString();
  }
}
