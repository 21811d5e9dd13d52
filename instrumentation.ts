// Runs once when the server starts: open and migrate the database (taking the data directory), bootstrap.
// Awaited: `npm start` (scripts/start.mjs) listens only after this returns, so a process that does not
// hold the data directory never answers a request, not even /api/v1/health.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startGateway } = await import("./lib/startup");
  await startGateway();
}
