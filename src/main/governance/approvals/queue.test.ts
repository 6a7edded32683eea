import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadBashAnalyzer } from '../bash/analyzer'
import { decide } from '../decide/decide'
import { SessionGrants } from '../decide/session'
import { loadSettings } from '../settings/load'
import { makeTempProject, type TempProject } from '../../../../test/support/governance'
import { ApprovalQueue } from './queue'
import { UnattendedAnswerer } from './answerer'
import { suggestRules } from './suggest'

let project: TempProject
beforeAll(async () => {
  await loadBashAnalyzer()
})
afterEach(() => project?.cleanup())

const explanation = { kind: 'default', detail: 'needs approval' } as const

function setup() {
  project = makeTempProject()
  const grants = new SessionGrants(project.root)
  const queue = new ApprovalQueue({ projectRoot: project.root, sousHome: project.sousHome, sessionGrants: grants })
  return { queue, grants }
}

/** The answerer a session gets when nobody can answer (see answerer.ts). */
function unattended() {
  project = makeTempProject()
  return { queue: new UnattendedAnswerer(new SessionGrants(project.root)) }
}

describe('ApprovalQueue', () => {
  it('allow once, then reject with a message that reaches the model', async () => {
    const { queue } = setup()
    const seen: number[] = []
    queue.subscribe((p) => seen.push(p.length))
    const first = queue.request({ toolName: 'Bash', input: { command: 'npm i' }, explanation })
    const [req] = queue.pending()
    expect(queue.resolve(req!.id, { kind: 'allow_once' })).toBeUndefined()
    expect(await first).toEqual({ behavior: 'allow', scope: 'once', rules: [] })
    const second = queue.request({ toolName: 'Bash', input: { command: 'npm i' }, explanation })
    queue.resolve(queue.pending()[0]!.id, { kind: 'reject', message: 'use pnpm' })
    expect(await second).toMatchObject({ behavior: 'deny', reason: 'rejected', message: expect.stringContaining('use pnpm') })
    expect(seen).toEqual([1, 0, 1, 0])
  })

  it('allow for this session adds a session grant that decide honours', async () => {
    const { queue, grants } = setup()
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    const input = { command: 'npm install && npm run build' }
    const call = () => decide({ tool: { name: 'Bash', isReadOnly: () => false }, input, mode: 'default', settings, cwd: project.root, projectRoot: project.root, sessionGrants: grants })
    expect((await call()).behavior).toBe('ask')
    const suggestions = suggestRules('Bash', input, { cwd: project.root, projectRoot: project.root, home: project.home })
    expect(suggestions).toEqual(['Bash(npm install *)', 'Bash(npm run build *)'])
    const p = queue.request({ toolName: 'Bash', input, explanation, suggestions })
    queue.resolve(queue.pending()[0]!.id, { kind: 'allow_session' })
    expect(await p).toMatchObject({ behavior: 'allow', scope: 'session' })
    const d = await call()
    expect(d.behavior).toBe('allow')
    expect(d.explanation).toMatchObject({ kind: 'rule', rule: { source: 'session' } })
  })

  it('always allow writes editable rules to settings.local.json, keeping the rest of the file', async () => {
    const { queue } = setup()
    const local = join(project.root, '.claude', 'settings.local.json')
    writeFileSync(local, JSON.stringify({ model: 'x', permissions: { allow: ['Bash(ls *)'], deny: ['Bash(rm *)'] }, hooks: {} }))
    const cmd = 'a1 x; a2 y; a3; a4; a5; a6; a7'
    const suggestions = suggestRules('Bash', { command: cmd }, { cwd: project.root, projectRoot: project.root, home: project.home })
    expect(suggestions).toHaveLength(5)
    const p = queue.request({ toolName: 'Bash', input: { command: cmd }, explanation, suggestions })
    queue.resolve(queue.pending()[0]!.id, { kind: 'allow_always', rules: ['Bash(a1 *)'] })
    expect(await p).toMatchObject({ behavior: 'allow', scope: 'always', rules: ['Bash(a1 *)'] })
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ model: 'x', permissions: { allow: ['Bash(ls *)', 'Bash(a1 *)'], deny: ['Bash(rm *)'] }, hooks: {} })
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(settings.rules.allow.map((r) => r.origin.text)).toContain('Bash(a1 *)')
  })

  it('never clobbers a settings file it cannot parse', async () => {
    const { queue } = setup()
    const local = join(project.root, '.claude', 'settings.local.json')
    writeFileSync(local, '{ "permissions": ')
    const p = queue.request({ toolName: 'Bash', input: { command: 'x' }, explanation, suggestions: ['Bash(x)'] })
    const error = queue.resolve(queue.pending()[0]!.id, { kind: 'allow_always' })
    expect(error).toMatch(/settings\.local\.json:1:\d+/)
    expect(await p).toMatchObject({ behavior: 'allow', scope: 'once', warning: expect.stringContaining('not changed') })
    expect(readFileSync(local, 'utf8')).toBe('{ "permissions": ')
  })

  it('rejects pending requests cleanly on abort and on dispose', async () => {
    const { queue } = setup()
    const ac = new AbortController()
    const p = queue.request({ toolName: 'Edit', input: {}, explanation, signal: ac.signal })
    const q = queue.request({ toolName: 'Write', input: {}, explanation })
    ac.abort()
    expect(await p).toMatchObject({ behavior: 'deny', reason: 'aborted' })
    expect(queue.pending()).toHaveLength(1)
    queue.dispose()
    expect(await q).toMatchObject({ behavior: 'deny', reason: 'aborted' })
    expect(queue.pending()).toHaveLength(0)
    expect(queue.resolve('nope', { kind: 'allow_once' })).toMatch(/no pending/)
  })

  it('headless: an ask resolves to deny and is recorded', async () => {
    const { queue } = unattended()
    const out = await queue.request({ toolName: 'Bash', input: { command: 'npm i' }, explanation })
    expect(out).toMatchObject({ behavior: 'deny', reason: 'headless' })
    expect(queue.denials()).toEqual([expect.objectContaining({ toolName: 'Bash', input: { command: 'npm i' } })])
    expect(queue.pending()).toEqual([])
  })
})
