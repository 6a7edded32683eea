/**
 * An MCP tool's input schema in the shape the Messages API accepts: an object schema with no
 * `$schema` key and no combinator at its root. A root `anyOf`/`oneOf`/`allOf` is flattened into
 * one object (Claude Code does the same): properties merged; `allOf` keeps every branch's required
 * fields; for `anyOf`/`oneOf` the groups are described in a sentence the description starts with.
 * The server still validates what it receives.
 */
export function apiInputSchema(schema: Record<string, unknown>): { schema: Record<string, unknown>; note?: string } {
  const { $schema: _ignored, ...rest } = schema
  const combinator = (['allOf', 'anyOf', 'oneOf'] as const).find((key) => Array.isArray(rest[key]))
  if (!combinator) return { schema: { ...rest, type: 'object', properties: objectOf(rest['properties']) } }
  const branches = (rest[combinator] as unknown[]).map(objectOf)
  const { [combinator]: _branches, ...base } = rest
  const properties: Record<string, unknown> = { ...objectOf(base['properties']) }
  for (const branch of branches) Object.assign(properties, objectOf(branch['properties']))
  const required = new Set(stringsOf(base['required']))
  if (combinator === 'allOf') for (const branch of branches) for (const name of stringsOf(branch['required'])) required.add(name)
  const flattened: Record<string, unknown> = { ...base, type: 'object', properties, ...(required.size > 0 && { required: [...required] }) }
  if (combinator === 'allOf') return { schema: flattened }
  const groups = branches.map((branch) => stringsOf(branch['required'])).filter((group) => group.length > 0)
  const note = groups.length > 0 ? `Pass ${combinator === 'oneOf' ? 'exactly one' : 'at least one'} of these parameter groups: ${groups.map((group) => `(${group.join(', ')})`).join(' or ')}.` : undefined
  return note ? { schema: flattened, note } : { schema: flattened }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

/** A rough token count of what a tool costs in every request (name, description, schema; chars / 4). */
export function schemaTokens(tool: { name: string; description: string; jsonSchema: Record<string, unknown> }): number {
  return Math.ceil(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema }).length / 4)
}
