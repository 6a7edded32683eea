import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ROOT, sourceFiles } from '../../../../test/source-scan'

/**
 * The gate's stages and the decision (`stages.ts`, `decide/`) load behind a seam
 * (`stages-load.ts`) at the first call judged. These tests check that nothing reaches them
 * statically (which would put them back on every start-up path) and that the first call, with
 * nothing loaded yet, is decided exactly as later ones and as a gate whose stages were in already.
 */

const governance = resolve(import.meta.dirname, '..')
const main = resolve(governance, '..')

/** The main process's sources, tests left out, as absolute paths. */
const mainSources = (): string[] => sourceFiles('src/main', { tests: false }).map((file) => join(ROOT, file))

/** Who may import a deferred module with a value import: the stages import the decision. */
const DEFERRED: Record<string, string[]> = {
  [join(governance, 'gate/stages.ts')]: [],
  [join(governance, 'decide/decide.ts')]: [join(governance, 'gate/stages.ts')],
}

let base: string
let project: string
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-gate-seam-'))
  project = join(base, 'project')
  mkdirSync(join(project, '.claude', 'blocked'), { recursive: true })
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Edit(./blocked/**)'], allow: ['Edit(./open/**)'] } }))
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

/** A headless gate over the project, from fresh copies of the modules (nothing loaded yet). */
async function freshGate(options: { preload?: boolean } = {}) {
  vi.resetModules()
  const seam = await import('./stages-load')
  if (options.preload) await seam.loadGateStages()
  const { createPermissionGate } = await import('./gate')
  const { writeTool } = await import('../../tools/write')
  const { SessionGrants } = await import('../decide/session')
  const { UnattendedAnswerer } = await import('../approvals/answerer')
  const { DenialLog } = await import('../approvals/denials')
  const { HookRunner } = await import('../hooks/runner')
  const gate = createPermissionGate({
    projectRoot: project,
    cwd: project,
    sousHome: join(base, 'sous-home'),
    home: join(base, 'home'),
    managedPath: join(base, 'managed-settings.json'),
    mode: 'default',
    projectTrust: 'assume',
    approvals: new UnattendedAnswerer(new SessionGrants(project)),
    hooks: new HookRunner({ hooks: [], sessionId: 's1', projectRoot: project }),
    sessionId: 's1',
    denials: new DenialLog(),
  })
  return { seam, gate, writeTool }
}

const write = (path: string) => ({ file_path: join(project, path), content: 'x' })

describe('the gate stages seam', () => {
  it('nothing imports the stages or the decision statically but the stages themselves', () => {
    const offending: string[] = []
    for (const file of mainSources()) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/^(import|export)\s(type\s)?[^'"]*?from\s+'([^']+)'/gm)) {
        if (match[2]) continue
        const target = resolve(file, '..', `${match[3] as string}.ts`)
        const allowed = DEFERRED[target]
        if (allowed && !allowed.includes(file)) offending.push(`${relative(main, file)} → ${relative(main, target)}`)
      }
    }
    expect(offending).toEqual([])
  })

  it('a gate is built without loading them', async () => {
    const { seam } = await freshGate()
    expect(seam.gateStagesIfLoaded()).toBeUndefined()
  })

  it('the first call, with nothing loaded, is decided as later calls and as a gate with the stages in', async () => {
    const cold = await freshGate()
    const calls = [write('blocked/a.txt'), write('open/a.txt'), write('other.txt')]
    const first = await cold.gate.canUseTool(cold.writeTool, calls[0], 't1')
    expect(cold.seam.gateStagesIfLoaded()).toBeDefined()
    expect(first.behavior).toBe('deny')
    const later = [first, ...(await Promise.all(calls.slice(1).map((input, i) => cold.gate.canUseTool(cold.writeTool, input, `t${i + 2}`))))]
    expect(later.map((d) => d.behavior)).toEqual(['deny', 'allow', 'deny'])
    expect(await cold.gate.canUseTool(cold.writeTool, calls[0], 't9')).toEqual(first)

    const warm = await freshGate({ preload: true })
    const warmDecisions = []
    for (const [i, input] of calls.entries()) warmDecisions.push(await warm.gate.canUseTool(warm.writeTool, input, `t${i + 1}`))
    expect(later).toEqual(warmDecisions)
  })

  it('check() on a cold gate answers as on a warm one', async () => {
    const cold = await freshGate()
    const first = await cold.gate.check(cold.writeTool, write('blocked/b.txt'))
    const warm = await freshGate({ preload: true })
    expect(first).toEqual(await warm.gate.check(warm.writeTool, write('blocked/b.txt')))
    expect(first.behavior).toBe('deny')
  })

  it('a call is judged in the mode it was made in, though the mode changes while the stages load', async () => {
    const { gate, writeTool } = await freshGate()
    gate.setMode('bypassPermissions')
    const pending = gate.canUseTool(writeTool, write('other.txt'), 't1')
    gate.setMode('default')
    expect(await pending).toMatchObject({ behavior: 'allow' })
    expect((await gate.canUseTool(writeTool, write('other.txt'), 't2')).behavior).toBe('deny')
  })
})
