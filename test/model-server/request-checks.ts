/** What the Messages API would reject outright in a request body, or undefined. */
export function invalidRequest(body: Record<string, unknown>): string | undefined {
  if (typeof body['model'] !== 'string' || body['model'].trim() === '') return 'model: a model name is required'
  const maxTokens = body['max_tokens']
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) return 'max_tokens: must be a positive integer'
  if (!Array.isArray(body['messages']) || body['messages'].length === 0) return 'messages: at least one message is required'
  return toolSearchProblem(body)
}

/**
 * The API's checks on tool search: not every tool may be deferred, and a `tool_reference` must name
 * a tool the request defines with `defer_loading` (else 400 `tool_reference_unresolved`).
 */
function toolSearchProblem(body: Record<string, unknown>): string | undefined {
  const tools = Array.isArray(body['tools']) ? (body['tools'] as Array<Record<string, unknown>>) : []
  const deferred = new Set(tools.filter((tool) => tool['defer_loading'] === true).map((tool) => String(tool['name'])))
  if (deferred.size > 0 && deferred.size === tools.length) return 'tools: at least one tool must not be deferred (defer_loading)'
  for (const message of body['messages'] as Array<Record<string, unknown>>) {
    if (!Array.isArray(message['content'])) continue
    for (const block of message['content'] as Array<Record<string, unknown>>) {
      if (block['type'] !== 'tool_result' || !Array.isArray(block['content'])) continue
      for (const part of block['content'] as Array<Record<string, unknown>>) {
        if (part['type'] === 'tool_reference' && !deferred.has(String(part['tool_name']))) return `tool_reference_unresolved: Tool reference '${String(part['tool_name'])}' not found in available tools`
      }
    }
  }
  return undefined
}
