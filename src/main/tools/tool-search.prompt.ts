/**
 * Model-facing description of ToolSearch: Claude Code 2.1.328's text, then the deferred tools'
 * names (Claude Code names them in a reminder; here they sit in the description, so the list is
 * part of the cached tool prefix and survives compaction).
 */
export function toolSearchDescription(names: readonly string[]): string {
  return `Fetches full schema definitions for deferred tools so they can be called.

Deferred tools are listed by name below. Until fetched, only the name is known — there is no parameter schema, so the tool cannot be invoked. This tool takes a query, matches it against the deferred tool list, and returns the matched tools' complete JSONSchema definitions. Once a tool's schema appears in that result, it is callable exactly like any tool defined at the top of the prompt.

Query forms:
- "select:Read,Edit,Grep" — fetch these exact tools by name
- "notebook jupyter" — keyword search, up to max_results best matches
- "+slack send" — require "slack" in the name, rank by remaining terms

Deferred tools (calling one before fetching it fails with InputValidationError):
${names.join('\n')}`
}
