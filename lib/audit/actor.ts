/** Who made a change: an API key, a console user, or the operator at the command line. */
export type Actor = { type: "api_key"; id: string } | { type: "user"; id: string } | { type: "system" };

/** The operator at the command line (`memgw`), or the server acting on its own. */
export const SYSTEM_ACTOR: Actor = { type: "system" };
