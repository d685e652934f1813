/**
 * Runs a bench's `main` and ends the process with its outcome: exit 0 once it resolved (sockets and
 * timers a stopped service leaves behind would otherwise hold the process open), exit 1 with the
 * error printed when it failed. Shared by the benches that run their service in this process.
 */
export function runToExit(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
