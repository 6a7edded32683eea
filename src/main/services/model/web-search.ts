import type { Usage } from '../../../shared/protocol/agent-event'
import type { ModelService, WebSearchServerTool } from './types'

/** What a web search side request found: the API's links per search, and the model's words between them. */
export interface WebSearchOutcome {
  /** In order: text the model wrote, or one search's hits (Claude Code's WebSearchOutput.results). */
  results: Array<string | { tool_use_id: string; content: Array<{ title: string; url: string }> }>
  searches: number
  usage: Usage
  costUsd: number
}

/** One web search as the WebSearch tool asks it. */
export interface WebSearchQuery {
  model: string
  query: string
  allowedDomains?: string[]
  blockedDomains?: string[]
  signal: AbortSignal
}

/** Claude Code 2.1.328's system text for the side request. */
const SYSTEM = 'You run a web search for another Claude model, which is waiting on the result and can search again. Search once, then reply with a brief summary of the results.'

/** Claude Code's `max_uses` for the side request. */
export const WEB_SEARCH_MAX_USES = 8

/**
 * Runs a web search as Claude Code 2.1.328 does: a side request offering only the API's server
 * tool `web_search_20250305` (its domain lists, `max_uses` 8), with tool_choice forcing it. The
 * API runs the search; its `server_tool_use` and `web_search_tool_result` blocks come back in
 * the reply. Contract: rejects with a readable message when the request fails.
 */
export async function searchWeb(service: ModelService, query: WebSearchQuery): Promise<WebSearchOutcome> {
  const tool: WebSearchServerTool = { type: 'web_search_20250305', name: 'web_search', max_uses: WEB_SEARCH_MAX_USES }
  if (query.allowedDomains?.length) tool.allowed_domains = query.allowedDomains
  if (query.blockedDomains?.length) tool.blocked_domains = query.blockedDomains
  for await (const event of service.stream({
    model: query.model,
    system: [{ type: 'text', text: SYSTEM }],
    messages: [{ role: 'user', content: [{ type: 'text', text: `Perform a web search for the query: ${query.query}` }] }],
    tools: [],
    serverTools: [tool],
    toolChoice: { type: 'tool', name: 'web_search' },
    maxTokens: 4096,
    signal: query.signal,
  })) {
    if (event.type === 'error') throw new Error(`The web search failed (${event.reason}): ${event.message}`)
    if (event.type !== 'message_end') continue
    const results: WebSearchOutcome['results'] = []
    let searches = 0
    for (const block of event.content) {
      if (block.type === 'text' && block.text.trim() !== '') results.push(block.text)
      if (block.type === 'server_tool_use') searches++
      if (block.type === 'web_search_tool_result') {
        if (Array.isArray(block.content)) results.push({ tool_use_id: block.tool_use_id, content: block.content.map((hit) => ({ title: hit.title, url: hit.url })) })
        else results.push(`Web search error: ${block.content.error_code}`)
      }
    }
    return { results, searches, usage: event.usage, costUsd: event.costUsd }
  }
  throw new Error('The web search ended without a reply.')
}
