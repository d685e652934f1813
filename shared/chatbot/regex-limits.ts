/** The limits on user regular expressions (shared/chatbot/safe-regex.ts), apart from the engine that enforces them. */

/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 500;
/** Largest compiled program accepted (RE2 instructions): bounds memory and per-character cost of `a{1000}`-style counts. */
export const MAX_PROGRAM_SIZE = 10_000;
