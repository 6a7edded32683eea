import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { TranscriptWriter, transcriptPath } from '../store/transcript'
import { loadSession, searchSessions, sessionChanges, sessionMarkdown, snippetAround } from './session-docs'

let home: string
const project = '/work/demo'
const base = { agentId: 'main' }

function store(sessionId: string, events: Array<Record<string, unknown>>, title?: string): void {
  const writer = TranscriptWriter.create(transcriptPath(home, project, sessionId), {
    sessionId,
    projectPath: project,
  })
  for (const event of events) writer.appendEvent({ ...base, sessionId, ...event } as AgentEvent)
  if (title) writer.setTitle(title)
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-docs-'))
  store('s1', [
    { type: 'turn_start', turnId: 't1', prompt: 'Fix the flaky login test' },
    {
      type: 'tool_state',
      toolUseId: 'u1',
      name: 'Edit',
      state: 'running',
      input: { file_path: `${project}/login.ts` },
    },
    {
      type: 'tool_end',
      toolUseId: 'u1',
      name: 'Edit',
      isError: false,
      content: 'ok',
      details: { filePath: `${project}/login.ts`, before: 'a\nb\n', after: 'a\nB\n' },
    },
    {
      type: 'tool_end',
      toolUseId: 'u2',
      name: 'Edit',
      isError: false,
      content: 'ok',
      details: { filePath: `${project}/login.ts`, before: 'a\nB\n', after: 'a\nB\nc\n' },
    },
    {
      type: 'tool_end',
      toolUseId: 'u3',
      name: 'Write',
      isError: false,
      content: 'ok',
      details: { filePath: `${project}/new.ts`, created: true, before: '', after: 'x\n' },
    },
    {
      type: 'tool_end',
      toolUseId: 'u4',
      name: 'Edit',
      isError: true,
      content: 'no match',
      details: { filePath: `${project}/other.ts`, before: '1', after: '2' },
    },
    { type: 'assistant_message', text: 'The ```race``` was in the session cookie.', stopReason: 'end_turn' },
    { type: 'turn_end', reason: 'completed' },
  ])
  store('s2', [{ type: 'turn_start', turnId: 't1', prompt: 'Write docs' }], 'Docs day')
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('searchSessions', () => {
  it('finds sessions by prompt, reply or title, case-insensitively, with a snippet', async () => {
    const byReply = await searchSessions(home, 'SESSION COOKIE')
    expect(byReply.map((m) => m.summary.sessionId)).toEqual(['s1'])
    expect(byReply[0]?.snippet).toContain('session cookie')
    expect((await searchSessions(home, 'docs day', project)).map((m) => m.summary.title)).toEqual([
      'Docs day',
    ])
    expect(await searchSessions(home, 'nothing like this')).toEqual([])
  })

  it("finds a session by what its tool calls were given (a path, a command)", async () => {
    const byInput = await searchSessions(home, 'login.ts')
    expect(byInput.map((m) => m.summary.sessionId)).toEqual(['s1'])
    expect(byInput[0]?.snippet).toContain(`Edit ${project}/login.ts`)
  })

  it('cuts long texts around the match', () => {
    expect(snippetAround(`${'x'.repeat(100)}needle${'y'.repeat(100)}`, 100, 6)).toMatch(/^…x+needley+…$/)
  })
})

describe('sessionMarkdown', () => {
  it('writes prompts, replies and tool calls, fencing text that holds backticks', async () => {
    const { fileName, markdown } = sessionMarkdown(await loadSession(home, 's1'))
    expect(fileName).toBe('fix-the-flaky-login-test.md')
    expect(markdown).toContain('# Fix the flaky login test')
    expect(markdown).toContain('## You\n\nFix the flaky login test')
    expect(markdown).toContain('## Sous\n\nThe ```race``` was in the session cookie.')
    expect(markdown).toContain('### Edit (failed)')
    await expect(loadSession(home, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('sessionChanges', () => {
  it('gives one diff per file from the first before to the last after, skipping failed calls', async () => {
    const changes = sessionChanges((await loadSession(home, 's1')).events, project)
    expect(changes.map((c) => [c.path, c.created])).toEqual([
      [`${project}/login.ts`, false],
      [`${project}/new.ts`, true],
    ])
    // A plain unified diff: it starts at its header, with no line of `=` before it.
    expect(changes[0]?.patch.split('\n')[0]).toBe('--- a/login.ts')
    expect(changes[0]?.patch).toContain('-b\n+B\n+c')
    expect(changes[1]?.patch).toContain('--- /dev/null')
  })
})
