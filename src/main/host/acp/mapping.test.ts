import { describe, expect, it } from 'vitest'
import type { ApprovalRequested } from '../../../shared/ipc/approval'
import { approvalReply, permissionRequest } from './permission'
import { promptParts } from './prompt-content'
import { modeState, offeredMode } from './modes'
import { mcpConfigText } from './mcp-servers'

const PNG = 'iVBORw0KGgo='

describe('promptParts', () => {
  it('joins text, links by path and embedded text as context; images become pictures', () => {
    const parts = promptParts([
      { type: 'text', text: 'look' },
      { type: 'resource_link', name: 'a.ts', uri: 'file:///src/a.ts' },
      { type: 'resource', resource: { uri: 'file:///src/b.ts', text: 'const b = 1' } },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ])
    expect(parts).toEqual({ ok: true, text: 'look\n\n[a.ts](/src/a.ts)\n\n<context uri="/src/b.ts">\nconst b = 1\n</context>', images: [{ mediaType: 'image/png', data: PNG }] })
  })

  it('refuses what the model cannot take instead of dropping it', () => {
    expect(promptParts([{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }])).toMatchObject({ ok: false, message: expect.stringContaining('audio') })
    expect(promptParts([{ type: 'image', mimeType: 'image/tiff', data: PNG }])).toMatchObject({ ok: false, message: expect.stringContaining('image/tiff') })
    expect(promptParts(Array.from({ length: 6 }, () => ({ type: 'image' as const, mimeType: 'image/png', data: PNG })))).toMatchObject({ ok: false, message: expect.stringContaining('at most 5') })
    expect(promptParts([{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } }])).toMatchObject({ ok: false })
    expect(promptParts([{ type: 'text', text: '   ' }])).toMatchObject({ ok: false, message: 'the prompt is empty' })
    expect(promptParts([{ type: 'resource', resource: { uri: 'mem://a"><x', text: 't' } }])).toMatchObject({ ok: true, text: '<context uri="mem://a%22><x">\nt\n</context>' })
  })
})

const approval = (extra: Partial<ApprovalRequested> = {}): ApprovalRequested => ({
  id: 'ap1',
  sessionId: 's1',
  toolUseId: 'tu1',
  toolName: 'Bash',
  input: { command: 'npm test' },
  preview: { kind: 'command', command: 'npm test' },
  explanation: { kind: 'rule', text: 'no rule allows it' },
  suggestions: ['Bash(npm test:*)'],
  ...extra,
})

describe('permission requests', () => {
  it('offers what the approval card offers, "always" only with rules to save', () => {
    expect(permissionRequest(approval()).options.map((option) => option.optionId)).toEqual(['allow_once', 'allow_session', 'allow_always', 'reject'])
    expect(permissionRequest(approval({ suggestions: [] })).options.map((option) => option.optionId)).toEqual(['allow_once', 'reject'])
    expect(permissionRequest(approval()).toolCall).toMatchObject({ toolCallId: 'tu1', kind: 'execute', content: [{ type: 'content', content: { type: 'text', text: 'npm test' } }] })
  })

  it('reads a cancelled, unknown or unoffered answer as a rejection', () => {
    expect(approvalReply(approval(), { outcome: { outcome: 'cancelled' } })).toEqual({ id: 'ap1', decision: 'reject' })
    expect(approvalReply(approval(), { outcome: { outcome: 'selected', optionId: 'yes please' } })).toEqual({ id: 'ap1', decision: 'reject' })
    expect(approvalReply(approval({ suggestions: [] }), { outcome: { outcome: 'selected', optionId: 'allow_always' } })).toEqual({ id: 'ap1', decision: 'reject' })
    expect(approvalReply(approval(), undefined)).toEqual({ id: 'ap1', decision: 'reject' })
    expect(approvalReply(approval(), { outcome: { outcome: 'selected', optionId: 'allow_session' } })).toEqual({ id: 'ap1', decision: 'allow_session' })
  })

  it('asks a single AskUserQuestion question with its options and answers with the label', () => {
    const question = approval({ toolName: 'AskUserQuestion', suggestions: [], preview: { kind: 'questions', questions: [{ question: 'Which?', header: 'Pick', multiSelect: false, options: [{ label: 'A', description: '' }, { label: 'B', description: '' }] }] } })
    expect(permissionRequest(question).options.map((option) => option.name)).toEqual(['A', 'B', 'Reject'])
    expect(approvalReply(question, { outcome: { outcome: 'selected', optionId: 'answer:1' } })).toEqual({ id: 'ap1', decision: 'allow_once', answers: { 'Which?': 'B' } })
    const several = approval({ toolName: 'AskUserQuestion', suggestions: [], preview: { kind: 'questions', questions: [{ question: 'One?', header: 'a', multiSelect: true, options: [{ label: 'A', description: '' }, { label: 'B', description: '' }] }] } })
    expect(permissionRequest(several).options.map((option) => option.optionId)).toEqual(['reject'])
    expect(approvalReply(several, { outcome: { outcome: 'selected', optionId: 'allow_once' } })).toMatchObject({ id: 'ap1', decision: 'reject' })
  })
})

describe('modes and MCP servers', () => {
  it('never offers bypassPermissions to a session that did not start in it', () => {
    expect(modeState('default', {}).availableModes.map((mode) => mode.id)).not.toContain('bypassPermissions')
    expect(offeredMode(modeState('default', { autoModeOff: true }), 'auto')).toBeUndefined()
    expect(offeredMode(modeState('bypassPermissions', {}), 'bypassPermissions')).toBe('bypassPermissions')
  })

  it("writes the client's servers as Claude Code's mcpServers", () => {
    expect(JSON.parse(mcpConfigText([{ name: 'a', command: 'node', args: ['s.js'], env: [{ name: 'K', value: 'v' }] }, { type: 'http', name: 'b', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'X', value: 'y' }] }]) ?? '')).toEqual({
      mcpServers: { a: { command: 'node', args: ['s.js'], env: { K: 'v' } }, b: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { X: 'y' } } },
    })
    expect(mcpConfigText([])).toBeUndefined()
  })
})
