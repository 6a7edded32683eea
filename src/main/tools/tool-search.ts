import { z } from 'zod'
import type { ToolReferenceBlock } from '../services/model/types'
import { defineTool } from './define-tool'
import { toolSearchDescription } from './tool-search.prompt'
import type { AnyTool, Tool } from './types'

const input = z.strictObject({
  query: z.string().describe('Query to find deferred tools. Use "select:<tool_name>" for direct selection, or keywords to search.'),
  max_results: z.number().default(5).describe('Maximum number of results to return (default: 5)'),
})

/** The name Claude Code gives its client-side tool search. */
export const TOOL_SEARCH = 'ToolSearch'

/**
 * ToolSearch (Claude Code 2.1.328's client-side tool search): finds deferred tools by exact name
 * (`select:A,B`) or keywords and answers with `tool_reference` blocks, which the API expands into
 * the tools' definitions (sent with `defer_loading: true` in every request, see
 * engine/deferred-tools.ts). Built for one set of deferred tools: a new set is a new tool.
 */
export function createToolSearchTool(deferred: readonly AnyTool[]): Tool<z.output<typeof input>> {
  return defineTool({
    name: TOOL_SEARCH,
    label: 'Find tools',
    description: toolSearchDescription(deferred.map((tool) => tool.name)),
    input,
    isReadOnly: () => true,
    isDestructive: () => false,
    isConcurrencySafe: () => true,
    // It only names tools the session already has; there is nothing to approve.
    isBookkeeping: () => true,
    summarize: (args) => args.query,
    async execute(args) {
      const found = searchTools(deferred, args.query, Math.max(1, Math.floor(args.max_results)))
      if (found.length === 0) return { content: 'No matching deferred tools found', details: { loaded: [] } }
      const content: ToolReferenceBlock[] = found.map((tool) => ({ type: 'tool_reference', tool_name: tool.name }))
      return { content, details: { loaded: found.map((tool) => tool.name) } }
    },
  })
}

/**
 * The deferred tools a query names: `select:` lists exact names (case-insensitive as a fallback);
 * otherwise each word scores a tool by its name (more) and description (less), `+word` must be
 * in the name, and the best `max` come back.
 */
export function searchTools(tools: readonly AnyTool[], query: string, max: number): AnyTool[] {
  const trimmed = query.trim()
  if (trimmed.toLowerCase().startsWith('select:')) {
    const wanted = trimmed.slice('select:'.length).split(',').map((name) => name.trim()).filter(Boolean)
    return wanted.flatMap((name) => tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.name.toLowerCase() === name.toLowerCase()) ?? [])
  }
  const words = trimmed.toLowerCase().split(/\s+/).filter(Boolean)
  const required = words.filter((word) => word.startsWith('+') && word.length > 1).map((word) => word.slice(1))
  const ranked = words.map((word) => word.replace(/^\+/, ''))
  const scored = tools
    .filter((tool) => required.every((word) => tool.name.toLowerCase().includes(word)))
    .map((tool) => ({ tool, score: ranked.reduce((sum, word) => sum + (tool.name.toLowerCase().includes(word) ? 3 : 0) + (tool.description.toLowerCase().includes(word) ? 1 : 0), 0) }))
    .filter((entry) => entry.score > 0)
  scored.sort((a, b) => b.score - a.score)
  return scored.slice(0, max).map((entry) => entry.tool)
}
