import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gitIn, makeRepository } from '../support/git-repo'
import { registryPath } from '../../src/main/worktrees/registry'
import { WorktreeService } from '../../src/main/worktrees/service'

// Several real Sous processes on one repository and one $SOUS_HOME, started together: the
// registry's cross-process lock is what keeps every record and gives a worktree to one session.
const ROOT = join(import.meta.dirname, '..', '..')
const WORKER = join(import.meta.dirname, 'registry-worker.ts')
let temp: string
let repo: string
let home: string
let go: string

beforeEach(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'sous-registry-race-')))
  repo = join(temp, 'repo')
  home = join(temp, 'home')
  go = join(temp, 'go')
  makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.claude/worktrees/\n' })
})
afterEach(() => rmSync(temp, { recursive: true, force: true }))

/** Starts one worker process; resolves with its JSON line once `go` was written and it finished. */
function worker(...args: string[]): { ready: Promise<void>; done: Promise<Record<string, unknown>> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, args[0]!, repo, home, go, ...args.slice(1)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += String(chunk)))
  child.stderr.on('data', (chunk) => (err += String(chunk)))
  const ready = new Promise<void>((resolve) => {
    const onData = () => {
      if (out.startsWith('ready\n')) {
        child.stdout.off('data', onData)
        resolve()
      }
    }
    child.stdout.on('data', onData)
  })
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`))
      else resolve(JSON.parse(last) as Record<string, unknown>)
    })
  })
  return { ready, done }
}

/** Runs the workers together: each loads, says it is ready, and waits for the `go` file, written once all are. */
async function race(workers: string[][]): Promise<Array<Record<string, unknown>>> {
  const started = workers.map((args) => worker(...args))
  await Promise.race([Promise.all(started.map((one) => one.ready)), Promise.all(started.map((one) => one.done))])
  writeFileSync(go, '')
  return Promise.all(started.map((one) => one.done))
}

describe('the worktree registry across processes', () => {
  it('four processes making five worktrees each at once: all twenty recorded, each once, each its own', async () => {
    const reports = (await race(['a', 'b', 'c', 'd'].map((prefix) => ['create', prefix, '5']))) as Array<{ made: string[]; failed: string[] }>
    expect(reports.flatMap((report) => report.failed)).toEqual([])
    const made = reports.flatMap((report) => report.made)
    expect(made).toHaveLength(20)
    const records = JSON.parse(readFileSync(registryPath(home, repo), 'utf8')) as { worktrees: Array<{ path: string; sessionId: string }> }
    expect(records.worktrees.map((record) => record.path).sort()).toEqual([...made].sort())
    expect(new Set(records.worktrees.map((record) => record.sessionId)).size).toBe(20)
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(21)
  }, 120_000)

  it('four sessions of four processes claiming one orphan worktree at once: exactly one gets it', async () => {
    const service = new WorktreeService({ home })
    const { info } = await service.create(repo, { name: 'orphan', owner: 'session', sessionId: 'gone-session' })
    const reports = (await race(['p1', 'p2', 'p3', 'p4'].map((id) => ['claim', info.path, `session-${id}`]))) as Array<{ claimed: boolean; error?: string }>
    const winners = reports.flatMap((report, index) => (report.claimed ? [`session-p${index + 1}`] : []))
    expect(winners).toHaveLength(1)
    for (const report of reports.filter((one) => !one.claimed)) expect(report.error).toMatch(/two sessions never share a worktree/)
    const record = (await service.registry.list(repo)).find((item) => item.path === info.path)
    expect(record?.sessionId).toBe(winners[0])
    expect(gitIn(repo, 'worktree', 'list', '--porcelain')).toContain(`locked sous session ${winners[0]}`)
  }, 120_000)
})
