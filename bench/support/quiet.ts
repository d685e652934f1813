/**
 * Imported first by benches that run the service in their own process: the logger reads LOG_LEVEL
 * once, when it is first imported, so it must be set before any service module loads. Logging every
 * accepted request at `info` would otherwise be part of what is measured.
 */
process.env.LOG_LEVEL ??= 'warn';
