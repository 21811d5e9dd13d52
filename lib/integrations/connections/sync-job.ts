/** The job kind of a connection's sync (lib/integrations/sync.ts runs it). */
export const SYNC_JOB_KIND = "integration.sync";

/** A connection has at most one sync queued or running: its job key. */
export const syncJobKey = (connectionId: string) => `integration.sync:${connectionId}`;
