package dev.memhook.api.capture;

/** What an observation records, as compression classifies it. */
public enum ObservationKind {
  /** A file was written or edited. */
  FILE_EDIT,
  /** A file or other source was read. */
  FILE_READ,
  /** A shell command ran. */
  COMMAND_RUN,
  /** Tests ran; the facts say whether they passed. */
  TEST_RESULT,
  /** Something failed. */
  ERROR,
  /** A decision was stated. */
  DECISION,
  /** Something was found out. */
  DISCOVERY,
  /** A preference was stated. */
  PREFERENCE,
  /** A turn of conversation with no more specific kind. */
  CONVERSATION,
  /** A session-level event: start, end, compaction, a subagent. */
  SESSION
}
