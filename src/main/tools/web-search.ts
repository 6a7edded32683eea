import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './web-search.prompt'
import type { WebSearchResults } from './question-types'

const input = z.strictObject({
  query: z.string().min(2).describe('The search query to use'),
  allowed_domains: z.array(z.string()).optional().describe('Only include search results from these domains'),
  blocked_domains: z.array(z.string()).optional().describe('Never include search results from these domains'),
})

/**
 * WebSearch, as Claude Code 2.1.328 has it: a client-side tool (permission rules `WebSearch`
 * apply: a deny rule removes it, an ask rule asks) whose call makes a side request with the API's
 * server-side `web_search_20250305` tool; the result lists the links in Claude Code's wording.
 */
export const webSearchTool = defineTool({
  name: 'WebSearch',
  label: 'Search the web',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => args.query,
  validate: async (args) => (args.allowed_domains?.length && args.blocked_domains?.length ? 'Give allowed_domains or blocked_domains, not both.' : undefined),
  async execute(args, ctx) {
    if (!ctx.webSearch) return { content: 'Web search is not available in this session.', isError: true }
    const started = Date.now()
    let found: WebSearchResults
    try {
      found = await ctx.webSearch({ query: args.query, ...(args.allowed_domains && { allowedDomains: args.allowed_domains }), ...(args.blocked_domains && { blockedDomains: args.blocked_domains }), signal: ctx.signal })
    } catch (error) {
      return { content: error instanceof Error ? error.message : String(error), isError: true }
    }
    const details = { query: args.query, results: found.results, durationSeconds: (Date.now() - started) / 1000, searchCount: found.searches }
    return { content: webSearchResultText(args.query, found.results), details }
  },
})

/** Claude Code's tool result text: the query, each hit list as `Links: [...]` (or the model's text), and its reminder to cite. */
export function webSearchResultText(query: string, results: WebSearchResults['results']): string {
  let text = `Web search results for query: "${query}"\n\n`
  for (const result of results) {
    if (typeof result === 'string') text += `${result}\n\n`
    else if (result.content.length > 0) text += `Links: ${JSON.stringify(result.content)}\n\n`
    else text += 'No links found.\n\n'
  }
  return `${text}\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.`
}
