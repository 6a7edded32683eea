import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { journalPlaceholdersIn, PlaceholderScope } from './placeholders'

/**
 * Placeholders a Sous that was killed mid-command left in a project are removed by the next one
 * to start: a real child process holds them (journaled in its Sous home), is killed with SIGKILL,
 * and the next start sweeps. Whatever somebody wrote meanwhile, and a live process's, stays.
 */

let base: string
afterEach(() => rmSync(base, { recursive: true, force: true }))

const module = resolve(__dirname, 'placeholders.ts')

/** A child process that holds placeholders for `paths` (journaled in `dir`) until it is killed. */
async function holder(dir: string, project: string, paths: string[]): Promise<{ kill(): Promise<void> }> {
  const script = join(base, `holder-${Math.random().toString(36).slice(2)}.mts`)
  writeFileSync(script, `import { journalPlaceholdersIn, PlaceholderScope } from ${JSON.stringify(module)}
journalPlaceholdersIn(${JSON.stringify(dir)})
const scope = new PlaceholderScope([${JSON.stringify(project)}], ${JSON.stringify(project)})
for (const path of ${JSON.stringify(paths)}) scope.hold(path, path.endsWith('.json'))
setTimeout(() => console.log('held'), 10)
setInterval(() => {}, 1000)
`)
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: resolve(__dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && done())
    child.on('exit', (code) => fail(new Error(`the holder exited (${code})`)))
  })
  return {
    kill: () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit')
        child.on('exit', () => done())
        child.kill('SIGKILL')
      }),
  }
}

describe('the placeholder journal', () => {
  it('lets the next start remove what a killed process left, but what was written since, and a live process’s', async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-journal-'))
    const [dir, project] = [join(base, 'home', 'sandbox'), join(base, 'project')]
    mkdirSync(project)
    const killed = await holder(dir, project, [join(project, '.vscode'), join(project, '.claude', 'commands'), join(project, '.mcp.json'), join(project, '.idea')])
    const live = await holder(dir, project, [join(project, '.bashrc')])
    expect(readdirSync(project).sort()).toEqual(['.bashrc', '.claude', '.idea', '.mcp.json', '.vscode'])
    expect(readdirSync(dir)).toHaveLength(2)
    await killed.kill()
    // Somebody put a file of their own in one of them after the crash.
    writeFileSync(join(project, '.idea', 'workspace.xml'), '<project/>')
    journalPlaceholdersIn(dir)
    expect(readdirSync(project).sort()).toEqual(['.bashrc', '.idea'])
    expect(existsSync(join(project, '.idea', 'workspace.xml'))).toBe(true)
    expect(readdirSync(dir)).toHaveLength(1)
    await live.kill()
  })

  it("takes a journal under this process's id that this process never wrote for an earlier process's (a container's Sous has the same id each time)", async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-journal-'))
    const [dir, project] = [join(base, 'home', 'sandbox'), join(base, 'project')]
    mkdirSync(project)
    const killed = await holder(dir, project, [join(project, '.vscode')])
    await killed.kill()
    const [left] = readdirSync(dir)
    renameSync(join(dir, left!), join(dir, `placeholders-${process.pid}.json`))
    journalPlaceholdersIn(dir)
    expect(readdirSync(project)).toEqual([])
    expect(readdirSync(dir)).toEqual([])
  })

  it("journals this process's placeholders while they are held, and none once they are given back", async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-journal-'))
    const [dir, project] = [join(base, 'home', 'sandbox'), join(base, 'project')]
    mkdirSync(project)
    journalPlaceholdersIn(dir)
    const scope = new PlaceholderScope([project], project)
    scope.hold(join(project, '.vscode'))
    await Promise.resolve()
    expect(readdirSync(dir)).toEqual([`placeholders-${process.pid}.json`])
    scope.release()
    await Promise.resolve()
    expect(readdirSync(dir)).toEqual([])
    expect(readdirSync(project)).toEqual([])
  })
})
