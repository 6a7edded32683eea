/**
 * Parallel sessions on worktrees (issue 27): the compare view's first paint with 4 sessions × 50
 * changed files (target ≤ 300 ms), in headless Chromium through `sous serve` — from the palette's
 * Enter to the files × sessions table drawn, opened at once after the project and after the idle
 * warm-up (which reads the runs), with the main side's read of every worktree timed on its own —
 * and applying 100 picked hunks to the base (target ≤ 500 ms), through the engine the desk uses: a plan read fresh from the worktrees, the checks and the writes; once with a base
 * that has not moved since the fork and once with a base that has (every file then merged by
 * `git merge-file`). Real git, real files. Needs a build (`npm run bench` builds first). Prints
 * figures; asserts nothing. Figures swing with machine load: run it alone. `BENCH_FIRST_OPENS=n`
 * starts the app n times per compare figure (one first open each); `SOUS_BENCH_BASELINE=<another
 * build's out/main/cli.js>` runs that build's compare view too, start by start in turn with this one.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os, { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { applyMerge } from '../src/main/worktrees/merge/apply'
import { planMerge } from '../src/main/worktrees/merge/plan'
import type { MergePick } from '../src/main/worktrees/merge/plan-types'
import { readSources } from '../src/main/worktrees/merge/source'
import { withScriptedBrowser } from './by-marker'
import { ms, quantile } from './frames'

const SESSIONS = 4
const FILES = 50
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7)
/** Fresh starts of `sous serve` per compare-view figure: each gives one first open. */
const FIRST_OPENS = Number(process.env['BENCH_FIRST_OPENS'] ?? 1)

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@example.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@example.invalid' } })

/** CPU this process and its finished children (git) have used, in ms, from /proc (Linux): a figure the machine's load does not inflate as it does wall time. */
function cpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    return ([11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) * 1000) / 100
  } catch {
    return undefined
  }
}

/** A module of 60 lines; `edits` replaces some of them. */
function module(index: number, edits: Record<number, string> = {}): string {
  return Array.from({ length: 60 }, (_, line) => edits[line + 1] ?? `export const value${index}_${line + 1} = ${line + 1}`).join('\n') + '\n'
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

/** A repository of `files` modules and `sessions` worktrees; session s changes every file at 5 places of its own. */
function makeRun(project: string, sessions: number, files: number): Array<{ sessionId: string; name: string; worktree: string }> {
  git(project, 'init', '-q', '-b', 'main')
  write(project, '.gitignore', '.claude/worktrees/\n')
  for (let index = 0; index < files; index++) write(project, `src/m${index}.ts`, module(index))
  git(project, 'add', '-A')
  git(project, 'commit', '-qm', 'first')
  return Array.from({ length: sessions }, (_, s) => {
    const name = `bench-${s + 1}`
    const worktree = join(project, '.claude', 'worktrees', name)
    git(project, 'worktree', 'add', '-q', '-b', `worktree-${name}`, worktree, 'HEAD')
    for (let index = 0; index < files; index++) {
      const edits = Object.fromEntries(Array.from({ length: 5 }, (_, k) => [2 + s * 2 + k * 12, `export const session${s + 1}_${k} = 'changed'`]))
      write(worktree, `src/m${index}.ts`, module(index, edits))
    }
    return { sessionId: `bench-session-${s + 1}`, name, worktree }
  })
}

/**
 * Milliseconds from the palette's Enter to the compare table holding every file's cell, waited for
 * from Node (an upper bound: the wait's own polling is in it).
 */
async function firstPaint(page: Page): Promise<number> {
  await page.keyboard.press('Control+Shift+P')
  const command = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('Run on N')
  const started = performance.now()
  await command.press('Enter')
  await page.locator('table[aria-label="Files by session"] tbody td button').nth(FILES * SESSIONS - 1).waitFor({ timeout: 30_000 })
  const took = performance.now() - started
  await page.getByRole('dialog', { name: 'Parallel sessions' }).getByRole('button', { name: 'Close' }).first().click()
  await page.getByRole('dialog', { name: 'Parallel sessions' }).waitFor({ state: 'detached' })
  return took
}

/**
 * The compare view in the app, from a fresh `sous serve` (`cli`: another build's, a baseline):
 * every round's first paint, the first one the view's first open. `settled`: that first open comes
 * after the window's idle warm-up (the dialog's chunk and the runs read at idle, as when a user
 * opens it a few seconds after the project); otherwise at once after the project opened, racing
 * the warm-up and the main side's read ahead.
 */
async function compareRounds(settled: boolean, cli?: string): Promise<number[]> {
  const prepare = async ({ home, project }: { home: string; project: string }) => {
    const sessions = makeRun(project, SESSIONS, FILES)
    const run = { runId: 'run_be0c0001', projectPath: realpathSync(project), prompt: 'Bench the compare view', createdAt: new Date().toISOString(), sessions: sessions.map((session) => ({ ...session, branch: `worktree-${session.name}`, model: 'sonnet' })) }
    write(home, 'parallel/runs/run_be0c0001.json', JSON.stringify(run))
    write(home, 'settings.json', `${JSON.stringify({ sous: { autoMemory: false } })}\n`)
  }
  const times: number[] = []
  await withScriptedBrowser({ prefix: 'sous-bench-parallel-', files: 0, prepare, scripts: () => ({}), ...(cli && { cli }) }, async (page) => {
    // requestIdleCallback's timeout is 3 s: by then the warm-up has run.
    if (settled) await page.waitForTimeout(3500)
    for (let round = 0; round < ROUNDS; round++) {
      times.push(await firstPaint(page))
      if (process.env['BENCH_TRACE']) console.error(`${cli ? 'baseline ' : ''}round ${round}: ${times.at(-1)} ms`)
    }
  })
  return times
}

/**
 * {@link compareRounds} from `FIRST_OPENS` fresh starts (the view's first open is one figure per
 * start), interleaved with a baseline build's when `SOUS_BENCH_BASELINE` names its `out/main/cli.js`.
 */
async function compareBench(settled: boolean): Promise<void> {
  const baseline = process.env['SOUS_BENCH_BASELINE']
  const builds = baseline ? [{ name: 'this build', cli: undefined }, { name: 'baseline', cli: baseline }] : [{ name: 'this build', cli: undefined }]
  const firsts = new Map<string, number[]>(builds.map((build) => [build.name, []]))
  const later = new Map<string, number[]>(builds.map((build) => [build.name, []]))
  for (let start = 0; start < FIRST_OPENS; start++) {
    // Each start alternates which build goes first, so neither always meets the other's leftovers.
    for (const build of start % 2 === 0 ? builds : [...builds].reverse()) {
      const times = await compareRounds(settled, build.cli)
      firsts.get(build.name)!.push(times[0]!)
      later.get(build.name)!.push(...times.slice(1))
    }
  }
  const when = settled ? 'opened after the idle warm-up' : 'opened at once after the project'
  for (const build of builds) {
    const first = firsts.get(build.name)!
    const rest = later.get(build.name)!
    const label = baseline ? ` [${build.name}]` : ''
    const opens = first.length > 1 ? `first open p50 ${ms(quantile(first, 0.5))} of ${first.length} starts (${first.map((time) => Math.round(time)).join(', ')} ms)` : `first open ${ms(first[0])}`
    console.log(`compare view${label}, ${SESSIONS} sessions × ${FILES} changed files, first paint (palette Enter → table drawn), ${when}: ${opens}, then p50 ${ms(quantile(rest, 0.5))}, p95 ${ms(quantile(rest, 0.95))} (target ≤ 300 ms; load ${os.loadavg()[0]!.toFixed(1)})`)
  }
  if (baseline) console.log(`  first open, this build ÷ baseline (p50s): ${((quantile(firsts.get('this build')!, 0.5) ?? NaN) / (quantile(firsts.get('baseline')!, 0.5) ?? NaN)).toFixed(2)}`)
}

/** The main side's part: reading every session's changes (what `parallel.runs` does per open), cold and then warm. */
async function readBench(): Promise<void> {
  const project = realpathSync(await mkdtemp(join(tmpdir(), 'sous-bench-read-')))
  try {
    const sessions = makeRun(project, SESSIONS, FILES).map((session) => ({ ...session, label: session.name }))
    const times: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      const read = await readSources(project, sessions)
      times.push(performance.now() - started)
      if ([...read.values()].some((source) => source.files.size !== FILES)) throw new Error('the bench read the wrong changes')
    }
    console.log(`reading ${SESSIONS} worktrees × ${FILES} changed files (the main side of each open): first ${ms(times[0])}, then p50 ${ms(quantile(times.slice(1), 0.5))} (load ${os.loadavg()[0]!.toFixed(1)})`)
  } finally {
    await rm(project, { recursive: true, force: true })
  }
}

async function applyBench(baseMoved: boolean): Promise<void> {
  const project = realpathSync(await mkdtemp(join(tmpdir(), 'sous-bench-apply-')))
  try {
    // 2 sessions × 10 files × 5 hunks = 100 hunks.
    const sessions = makeRun(project, 2, 10).map((session) => ({ ...session, label: session.name }))
    if (baseMoved) {
      for (let index = 0; index < 10; index++) write(project, `src/m${index}.ts`, module(index, { 60: `export const base_${index} = 'moved'` }))
      git(project, 'commit', '-qam', 'the base moved')
    }
    const times: number[] = []
    const cpu: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      git(project, 'checkout', '-q', '--', '.')
      const sources = await readSources(project, sessions)
      const picks: MergePick[] = sessions.flatMap((session) => Array.from({ length: 10 }, (_, index) => ({ sessionId: session.sessionId, path: `src/m${index}.ts`, hunks: [0, 1, 2, 3, 4] })))
      const plan = await planMerge(project, sources, picks)
      const fingerprints = Object.fromEntries(plan.files.map((file) => [file.path, file.fingerprint]))
      const started = performance.now()
      const cpuBefore = cpuMs()
      const outcome = await applyMerge(project, await readSources(project, sessions), { picks, fingerprints })
      times.push(performance.now() - started)
      const cpuAfter = cpuMs()
      if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore)
      if (outcome.written.length !== 10 || outcome.heldBack.length > 0) throw new Error(`the bench's merge went wrong: ${JSON.stringify(outcome).slice(0, 300)}`)
    }
    console.log(`apply 100 hunks (2 sessions × 10 files × 5), base ${baseMoved ? 'moved since the fork (its own changes merged three-way)' : 'as at the fork'}: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))} (target ≤ 500 ms; reading both worktrees included); CPU (this process and git) p50 ${ms(quantile(cpu, 0.5))} (load ${os.loadavg()[0]!.toFixed(1)})`)
  } finally {
    await rm(project, { recursive: true, force: true })
  }
}

export default async function bench(): Promise<void> {
  // BENCH_PART=apply or compare runs one half.
  const part = process.env['BENCH_PART']
  if (part !== 'compare') {
    await applyBench(false)
    await applyBench(true)
  }
  if (part !== 'apply') {
    await readBench()
    // BENCH_OPENS=at-once or settled runs one of the two compare figures.
    const opens = process.env['BENCH_OPENS']
    if (opens !== 'settled') await compareBench(false)
    if (opens !== 'at-once') await compareBench(true)
  }
}
