import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { mergeStreams } from '../../shared/protocol/recording'
import { replayDocument, type ReplayDocument } from './session-replay'
import { jsonForScript, replayPage } from './session-replay-page'

const main = { sessionId: 's1', agentId: 'main' }
const sub = { sessionId: 's1', agentId: 'a1', parentToolUseId: 'c-agent' }
const HOSTILE = '</script><script>window.pwned = 1</script><!-- <script>'

const events: AgentEvent[] = [
  { ...main, type: 'turn_start', turnId: 't1', prompt: `Say ${HOSTILE}` },
  { ...main, type: 'tool_state', toolUseId: 'c-bash', name: 'Bash', state: 'running', input: { command: `echo '${HOSTILE}'` } },
  { ...main, type: 'tool_end', toolUseId: 'c-bash', name: 'Bash', isError: false, content: HOSTILE, details: { exitCode: 0 } },
  { ...main, type: 'tool_state', toolUseId: 'c-edit', name: 'Edit', state: 'running', input: { file_path: '/p/a.html' } },
  { ...main, type: 'tool_end', toolUseId: 'c-edit', name: 'Edit', isError: false, content: 'ok', details: { filePath: '/p/a.html', before: '<p>old</p>\n', after: `${HOSTILE}\n` } },
  { ...main, type: 'assistant_message', text: `Here: ${HOSTILE}`, stopReason: 'end_turn' },
  { ...main, type: 'turn_end', reason: 'completed' },
]
const subEvents: AgentEvent[] = [
  { ...sub, type: 'agent_start', parentAgentId: 'main', agentType: 'Explore', description: 'Look <b>around</b>', prompt: 'look', model: 'm', background: false, at: 1500 },
  { ...sub, type: 'assistant_message', text: 'Seen.', stopReason: 'end_turn' },
]

function documentOf(): ReplayDocument {
  const recording = mergeStreams({ events, times: [1000, 1100, 1200, 1300, 1400, 2000, 2100] }, [{ events: subEvents, times: [1500, 1600] }])
  return replayDocument(recording, { title: `Title ${HOSTILE}`, projectPath: '/p', sessionId: 's1', createdAt: '2026-12-02T00:00:00.000Z' })
}

describe('the HTML replay export', () => {
  it('has a step per prompt, reply, call and subagent moment, with the diff, the command and a lane per subagent', () => {
    const document = documentOf()
    expect(document.lanes).toEqual([{ id: 'main', label: 'Main agent' }, { id: 'a1', label: 'Explore: Look <b>around</b>' }])
    expect(document.items.map((item) => `${item.lane}:${item.kind}`)).toEqual(['main:prompt', 'main:tool', 'main:tool', 'a1:agent', 'a1:reply', 'main:reply'])
    const bash = document.items[1]!
    expect(bash.command).toEqual({ line: `echo '${HOSTILE}'`, exitCode: 0 })
    expect(document.items[2]!.diff).toContain('-<p>old</p>')
  })

  it('writes the transcript only as escaped JSON data: no tag, comment or script end can come out of it', () => {
    const html = replayPage(documentOf())
    // The page's own two script elements, and no other.
    expect(html.match(/<script/gi)).toHaveLength(2)
    expect(html.match(/<\/script/gi)).toHaveLength(2)
    expect(html).not.toContain('<!--')
    expect(html).not.toContain('<b>')
    expect(html).toContain('<title>Title &#60;/script&#62;&#60;script&#62;window.pwned = 1&#60;/script&#62;&#60;!-- &#60;script&#62; — Sous replay</title>')
    const block = /<script type="application\/json" id="sous-replay-data">([^]*?)<\/script>/.exec(html)![1]!
    expect(JSON.parse(block)).toEqual(documentOf())
  })

  it('allows only its own script and style by hash, and nothing from the network', () => {
    const html = replayPage(documentOf())
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+';/)
    expect(csp).not.toContain('unsafe')
    expect(html).not.toMatch(/\b(src|href)=/)
  })

  it('escapes line separators and every character that could end a script element', () => {
    expect(jsonForScript({ a: '</script>\u2028&' })).toBe('{"a":"\\u003c/script\\u003e\\u2028\\u0026"}')
  })
})
