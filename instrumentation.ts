// Runs once when the server starts: open and migrate the database, bootstrap, print where we are.
// Fire-and-forget: awaiting here would hold every request until the database is ready, and requests
// wait for the same opening through getDatabase() anyway.
export function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  void import("./lib/startup").then(({ startGateway }) => startGateway());
}
