package dev.memhook.api;

/** What kind of knowledge a memory holds. Hosts may filter and rank by it. */
public enum MemoryType {
  /** A recurring way of doing something in a code base or a conversation. */
  PATTERN,
  /** What a user or a team prefers. */
  PREFERENCE,
  /** A structural decision about a system's design and its reasons. */
  ARCHITECTURE,
  /** A defect, its symptom and its fix. */
  BUG,
  /** A sequence of steps that gets something done. */
  WORKFLOW,
  /** A stated fact. */
  FACT,
  /** Something that was seen or said, not yet distilled; the default for captured turns. */
  OBSERVATION,
  /**
   * A choice a user or a team made and stands by ("we chose Koin over Hilt", "API versions go in
   * the path"), with its reasons when they were given. Declared after the original types so the
   * ordinal of every earlier type is unchanged.
   */
  DECISION
}
