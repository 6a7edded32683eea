/**
 * The environment an MCP server process starts from: Sous's own environment without its
 * credentials (`ANTHROPIC_*`: API key, auth token, base URL…), so a server never learns the key the
 * agent talks to the model with. The same scrubbed copy is what `${VAR}` in a server entry expands
 * against, so `"env": {"K": "${ANTHROPIC_API_KEY}"}` in a project's `.mcp.json` cannot lift it
 * either. One place, until the session runtime passes in the shared child-environment scrubber.
 */
export function scrubChildEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || /^ANTHROPIC_/i.test(key)) continue
    out[key] = value
  }
  return out
}
