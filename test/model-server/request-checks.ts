/** What the Messages API would reject outright in a request body, or undefined. */
export function invalidRequest(body: Record<string, unknown>): string | undefined {
  if (typeof body['model'] !== 'string' || body['model'].trim() === '') return 'model: a model name is required'
  const maxTokens = body['max_tokens']
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) return 'max_tokens: must be a positive integer'
  if (!Array.isArray(body['messages']) || body['messages'].length === 0) return 'messages: at least one message is required'
  return undefined
}
