import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { baseParams, runQuery, scriptedModel } from '../../../test/support/engine'
import { searchWeb } from '../services/model/web-search'
import type { ToolResultBlock } from '../services/model/types'
import { webSearchTool } from './web-search'

// The real loop and SDK; the scripted server answers the side request with the server-tool blocks the API sends.
const server = useModelServer()

const hits = [
  { type: 'web_search_result', title: 'Day.js docs', url: 'https://day.js.org/docs/en/installation/installation', encrypted_content: 'enc1', page_age: null },
  { type: 'web_search_result', title: 'Day.js API', url: 'https://day.js.org/docs/en/parse/parse', encrypted_content: 'enc2', page_age: '2 days ago' },
]

describe('WebSearch', () => {
  it('asks the API’s web search in a side request (domains, max_uses 8, forced) and lists the links in Claude Code’s words', async () => {
    server.setScenario([
      toolUseReply('WebSearch', { query: 'dayjs docs', allowed_domains: ['day.js.org'] }),
      {
        reply: {
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'dayjs docs' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: hits },
            { type: 'text', text: 'Day.js documents installation and parsing.' },
          ],
        },
      },
      textReply('Sources: [Day.js docs](https://day.js.org/docs/en/installation/installation)'),
    ])
    const model = scriptedModel(server.url)
    const webSearch = (query: Parameters<typeof searchWeb>[1] extends infer Q ? Omit<Q & object, 'model'> : never) => searchWeb(model, { ...query, model: 'claude-sonnet-4-5' })
    const { result } = await runQuery(baseParams(model, { tools: [webSearchTool], toolContext: { webSearch } }))
    expect(result.reason).toBe('completed')
    const side = server.requests[1]!.body
    expect(side['tools']).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['day.js.org'] }])
    expect(side['tool_choice']).toEqual({ type: 'tool', name: 'web_search' })
    const messages = server.requests[2]!.body['messages'] as Array<{ content: unknown }>
    const toolResult = (messages.at(-1)!.content as ToolResultBlock[])[0]!
    expect(toolResult.content).toBe(
      `Web search results for query: "dayjs docs"\n\nLinks: [{"title":"Day.js docs","url":"https://day.js.org/docs/en/installation/installation"},{"title":"Day.js API","url":"https://day.js.org/docs/en/parse/parse"}]\n\nDay.js documents installation and parsing.\n\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.`,
    )
  })
})
