import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MemoryChange } from '../../shared/ipc/memory'
import { createEventHub } from '../base/event-hub'
import { MemoryService, type MemoryPreferences } from './service'

let root: string
let project: string
let changes: MemoryChange[]
let preferences: MemoryPreferences
let service: MemoryService

const correction = {
  scope: 'project' as const,
  name: 'Use pnpm',
  description: 'Scripts run with pnpm, never npm',
  type: 'feedback',
  body: 'Use pnpm for every script.\n\n**Why:** the user corrected an npm install.\n**How to apply:** pnpm test, pnpm build.',
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-memsvc-'))
  project = join(root, 'app')
  await mkdir(project)
  changes = []
  preferences = {}
  const hub = createEventHub()
  hub.subscribe((channel, payload) => channel === 'memory.changed' && changes.push(payload as MemoryChange))
  service = new MemoryService({ sousHome: join(root, 'sous'), home: join(root, 'home'), env: {}, hub, preferences: () => preferences })
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('MemoryService', () => {
  it('writes an agent memory as an undoable change, announced live, and never twice', async () => {
    const today = new Date(2026, 2, 5)
    const first = await service.agentWrite(project, 'session-1', correction, today)
    expect(first).toMatchObject({ kind: 'written', change: { change: 'created', by: 'agent', file: 'feedback_use_pnpm.md', sessionId: 'session-1' } })
    expect(changes).toHaveLength(1)
    // The same memory again, by name or by file, changes nothing.
    expect(await service.agentWrite(project, 'session-1', correction, today)).toEqual({ kind: 'unchanged', file: 'feedback_use_pnpm.md' })
    expect(await service.agentWrite(project, 'session-1', { ...correction, file: 'feedback_use_pnpm.md' }, today)).toEqual({ kind: 'unchanged', file: 'feedback_use_pnpm.md' })
    expect(changes).toHaveLength(1)
    // A refinement of it updates the same file.
    const refined = await service.agentWrite(project, 'session-2', { ...correction, body: `${correction.body}\nAlso pnpm dlx instead of npx.` }, today)
    expect(refined).toMatchObject({ kind: 'written', change: { change: 'updated', file: 'feedback_use_pnpm.md' } })
    const listed = await service.list(project)
    expect(listed.memories.map((memory) => memory.file)).toEqual(['feedback_use_pnpm.md'])
    expect(listed.folders.find((folder) => folder.scope === 'project')?.index).toMatchObject({ lines: 1, listed: 1, omitted: 0, maxLines: 200, maxBytes: 25_000 })
    // Undo the update, then the creation.
    await service.undo((refined as { change: MemoryChange }).change.changeId!)
    expect((await service.list(project)).memories[0]?.body).not.toContain('pnpm dlx')
    await service.undo((first as { change: MemoryChange }).change.changeId!)
    expect((await service.list(project)).memories).toEqual([])
    const activity = await service.activity.about(listed.memories[0]!.path)
    expect(activity.map((entry) => [entry.sessionId, entry.action])).toEqual([
      ['session-2', 'updated'],
      ['session-1', 'created'],
    ])
  })

  it('refuses to undo over an edit made since', async () => {
    const written = await service.agentWrite(project, 's', correction, new Date())
    const path = (await service.list(project)).memories[0]!.path
    await writeFile(path, (await readFile(path, 'utf8')).replace('every script', 'every script and tool'))
    await expect(service.undo((written as { change: MemoryChange }).change.changeId!)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await readFile(path, 'utf8')).toContain('every script and tool')
  })

  it('holds agent writes for approval when the preference says so', async () => {
    preferences = { memoryWrites: 'approve' }
    const proposed = await service.agentWrite(project, 's', { ...correction, type: 'project', name: 'Freeze', description: 'Merge freeze starts tomorrow', body: 'No merges from tomorrow.' }, new Date(2026, 2, 5))
    expect(proposed).toMatchObject({ kind: 'proposed', proposal: { action: 'create', file: 'project_freeze.md', description: 'Merge freeze starts 2026-03-06' } })
    expect((await service.list(project)).memories).toEqual([])
    expect((await service.list(project)).proposals).toHaveLength(1)
    await service.decide((proposed as { proposal: { id: string } }).proposal.id, true)
    expect((await service.list(project)).memories.map((memory) => memory.body)).toEqual(['No merges from 2026-03-06.'])
    expect((await service.list(project)).proposals).toEqual([])
    expect(changes.map((change) => change.change)).toEqual(['proposed', 'created'])
  })

  it('renames, deletes and saves from the browser, with versions', async () => {
    const saved = await service.save(project, 'user', undefined, undefined, { name: 'Role', description: 'Backend engineer', type: 'user', body: 'Go, Postgres.' })
    expect(saved.memory).toMatchObject({ file: 'user_role.md', scope: 'user' })
    await expect(service.save(project, 'user', 'user_role.md', 'stale', { name: 'Role', description: 'x', type: 'user', body: 'y' })).rejects.toMatchObject({ code: 'CONFLICT' })
    const renamed = await service.rename(project, 'user', 'user_role.md', saved.memory.version, 'Job')
    expect(renamed.memory.file).toBe('user_job.md')
    await service.undo(renamed.changeId)
    const back = (await service.list(project)).memories
    expect(back.map((memory) => [memory.file, memory.name])).toEqual([['user_role.md', 'Role']])
    const deleted = await service.delete(project, 'user', 'user_role.md', back[0]!.version)
    expect((await service.list(project)).memories).toEqual([])
    await service.undo(deleted.changeId)
    expect((await service.list(project)).memories).toHaveLength(1)
  })

  it('puts each folder\'s MEMORY.md in the prompt section, and nothing when memory is off', async () => {
    await service.agentWrite(project, 's', correction, new Date())
    const section = await service.promptSection(project)
    expect(section).toContain('# Memory')
    expect(section).toContain(`## User memory (every project): ${join(root, 'sous', 'memory')}\nNo memories yet.`)
    expect(section).toContain('- [Use pnpm](feedback_use_pnpm.md) — Scripts run with pnpm, never npm')
    preferences = { autoMemory: false }
    expect(await service.promptSection(project)).toBe('')
  })
})
