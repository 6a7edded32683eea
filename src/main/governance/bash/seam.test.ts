import { readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTempProject, type TempProject } from '../../../../test/support/governance'
import { ROOT, sourceFiles } from '../../../../test/source-scan'

/**
 * The Bash analyzer loads behind a seam (`analyzer.ts`), with the parser, on the first command
 * judged. These tests check that nothing reaches it statically from outside `bash/` (which
 * would put it back on every start-up path) and that the first call, with nothing loaded yet,
 * is decided exactly as later ones are.
 */

const governance = resolve(import.meta.dirname, '..')
const main = resolve(governance, '..')

/** The main process's sources, tests left out, as absolute paths. */
const mainSources = (): string[] => sourceFiles('src/main', { tests: false }).map((file) => join(ROOT, file))

/** Modules outside `bash/` may import (values or types) without loading the analyzer. */
const OUTSIDE_ALLOWED = new Set(['analyzer', 'types'])

let project: TempProject | undefined
afterEach(() => {
  project?.cleanup()
  project = undefined
})

/** Fresh copies of the modules, so that the analyzer has not loaded yet. */
async function fresh() {
  vi.resetModules()
  const seam = await import('./analyzer')
  const { decide } = await import('../decide/decide')
  const { loadSettings } = await import('../settings/load')
  return { seam, decide, loadSettings }
}

describe('the Bash analyzer seam', () => {
  it('nothing outside bash/ imports the analyzer statically, and only the seam imports its parts', () => {
    const offending: string[] = []
    for (const file of mainSources()) {
      const text = readFileSync(file, 'utf8')
      const inBash = file.startsWith(join(governance, 'bash') + '/')
      for (const match of text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)) {
        const target = resolve(file, '..', match[1] as string)
        const fromBash = relative(join(governance, 'bash'), target)
        if (fromBash.startsWith('..')) continue
        const name = fromBash.replace(/\.ts$/, '')
        if (name === 'analyzer-parts' && !file.endsWith('/bash/analyzer.ts')) offending.push(`${relative(main, file)} → ${name}`)
        if (!inBash && !OUTSIDE_ALLOWED.has(name)) offending.push(`${relative(main, file)} → bash/${name}`)
      }
    }
    expect(offending).toEqual([])
  })

  it('the first call, with nothing loaded, denies by a Bash deny rule as later calls do', async () => {
    const { seam, decide, loadSettings } = await fresh()
    expect(seam.bashAnalyzerIfReady()).toBeUndefined()
    project = makeTempProject({ permissions: { deny: ['Bash(rm *)'], allow: ['Bash(echo *)'] } })
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    const where = { settings, cwd: project.root, projectRoot: project.root }
    const bash = { name: 'Bash', isReadOnly: () => false }
    // The wrapper matters: only the analyzer's wrapper tables see the `rm` inside `timeout 5 rm`.
    const first = await decide({ tool: bash, input: { command: 'timeout 5 rm -rf src' }, mode: 'bypassPermissions', ...where })
    expect(first.behavior).toBe('deny')
    expect(seam.bashAnalyzerIfReady()).toBeDefined()
    expect((await decide({ tool: bash, input: { command: 'timeout 5 rm -rf src' }, mode: 'bypassPermissions', ...where })).behavior).toBe('deny')
    expect((await decide({ tool: bash, input: { command: 'echo hi' }, mode: 'default', ...where })).behavior).toBe('allow')
    expect((await decide({ tool: bash, input: { command: 'echo hi; rm x' }, mode: 'default', ...where })).behavior).toBe('deny')
  })

  it('until it has loaded, the Bash tool is told a command is neither read-only nor concurrency-safe', async () => {
    const { seam } = await fresh()
    const { createBashClassifier } = await import('../gate/bash-preview')
    const classifier = await createBashClassifier({ projectRoot: '/tmp' })
    expect(classifier.classify('ls')).toEqual({ readOnly: false, concurrencySafe: false })
    await seam.loadBashAnalyzer()
    expect(classifier.classify('ls')).toEqual({ readOnly: true, concurrencySafe: true })
    expect(classifier.classify('rm x')).toEqual({ readOnly: false, concurrencySafe: false })
  })

  it("until it has loaded, a hook's `if` filter cannot rule a Bash call out, so the hook runs", async () => {
    const { seam, loadSettings } = await fresh()
    const { HookRunner } = await import('../hooks/runner')
    const { HookLog } = await import('../hooks/log')
    project = makeTempProject({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2', if: 'Bash(git push *)' }] }] } })
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    const runner = new HookRunner({ hooks: settings.hooks, sessionId: 's1', projectRoot: project.root, log: new HookLog() })
    const pre = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' }
    expect((await runner.fire('PreToolUse', pre, { cwd: project.root, permissionMode: 'default' })).blocked).toBe(true)
    await seam.loadBashAnalyzer()
    expect((await runner.fire('PreToolUse', pre, { cwd: project.root, permissionMode: 'default' })).count).toBe(0)
  })
})
