import { fileURLToPath } from 'node:url'

/** The stdio fixture server (see `fixture-server.mjs` for what it offers). */
export const FIXTURE_SERVER = fileURLToPath(new URL('./fixture-server.mjs', import.meta.url))

/** A `.mcp.json`-style entry that starts the fixture server with `env` set. */
export function fixtureEntry(env: Record<string, string> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER], env, ...extra }
}
