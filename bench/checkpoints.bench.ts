/**
 * Checkpoints (issue 26): snapshot time on a 10,000-file repository with 20 files changed between
 * snapshots (p50/p95; target p95 ≤ 100 ms), the full first snapshot, store growth per
 * checkpoint, and restore time (plan + write) — in a git repository and in a folder outside git
 * (the content store). Real git, real files in a temp folder, through the recorder the sessions
 * use (its file watcher on, unless BENCH_WATCH=off). Prints figures; asserts nothing. Figures
 * swing with machine load: run it alone, and compare runs taken at the same load.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CheckpointRecorder } from '../src/main/checkpoints/recorder'
import { applyRestore } from '../src/main/checkpoints/restore-apply'
import { planRestore } from '../src/main/checkpoints/restore-plan'
import { ms, quantile } from './frames'

const FILES = 10_000
const CHANGED = 20
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 40)

/**
 * CPU this process and its finished children (git) have used, in ms, from /proc (Linux): a
 * figure the machine's load does not inflate the way it does wall time. Undefined elsewhere.
 */
function cpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    // utime, stime, cutime, cstime are fields 14–17 (1-based; 12–15 after the command name).
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0)
    return (ticks * 1000) / 100
  } catch {
    return undefined
  }
}

async function bytesUnder(folder: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) total += await bytesUnder(path)
    else total += (await stat(path).catch(() => undefined))?.size ?? 0
  }
  return total
}

async function seed(project: string): Promise<void> {
  for (let folder = 0; folder < 100; folder++) {
    await mkdir(join(project, `pkg-${folder}`), { recursive: true })
    for (let file = 0; file < FILES / 100; file++) await writeFile(join(project, `pkg-${folder}`, `file-${file}.ts`), `export const value${file} = ${folder * 1000 + file}\n`.repeat(20))
  }
}

async function run(kind: 'git' | 'content'): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'sous-bench-checkpoints-'))
  const project = join(root, 'project')
  const home = join(root, 'home')
  await mkdir(project)
  await seed(project)
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' }
  if (kind === 'git') {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })
    execFileSync('git', ['add', '-A'], { cwd: project })
    execFileSync('git', ['-c', 'gc.auto=0', 'commit', '-qm', 'seed'], { cwd: project, env: gitEnv })
  }
  // BENCH_WATCH=off: no file watcher, every snapshot scans everything (the figures before it).
  const watch = process.env['BENCH_WATCH'] !== 'off'
  const recorder = new CheckpointRecorder({ home, sessionId: 'bench', projectPath: project, env: process.env, transcriptPath: join(root, 'none.jsonl'), enabled: () => true, notice: () => undefined, watch })
  const store = kind === 'git' ? join(project, '.git', 'objects') : join(home, 'checkpoints')
  let started = performance.now()
  await recorder.before({ toolUseId: 'call-0', name: 'Bash', agentId: 'main', summary: 'first' })
  const first = performance.now() - started
  await recorder.settled()
  const times: number[] = []
  const growth: number[] = []
  const scans = new Map<string, number>()
  const untouched: number[] = []
  let cpu = 0
  for (let round = 1; round <= ROUNDS; round++) {
    for (let change = 0; change < CHANGED; change++) {
      const index = (round * 97 + change * 131) % FILES
      await writeFile(join(project, `pkg-${Math.floor(index / 100)}`, `file-${index % 100}.ts`), `// round ${round}\n`.repeat(20))
    }
    const size = await bytesUnder(store)
    const cpuBefore = cpuMs()
    started = performance.now()
    await recorder.before({ toolUseId: `call-${round}`, name: 'Bash', agentId: 'main', summary: `round ${round}` })
    times.push(performance.now() - started)
    const scan = recorder.workspace.lastScan
    const kind = scan === undefined ? 'failed' : scan.kind === 'full' ? `full (${scan.reason})` : scan.kind
    scans.set(kind, (scans.get(kind) ?? 0) + 1)
    // The commit that keeps the tree is made after the snapshot answered: wait for it before
    // measuring the store (and so the next snapshot does not overlap it).
    await recorder.settled()
    cpu += (cpuMs() ?? NaN) - (cpuBefore ?? NaN)
    growth.push((await bytesUnder(store)) - size)
    // The call's after-state, then the next call's checkpoint with nothing changed in between:
    // what most checkpoints before a call cost (the changes were the previous call's).
    await recorder.after(`call-${round}`)
    started = performance.now()
    await recorder.before({ toolUseId: `call-${round}-next`, name: 'Bash', agentId: 'main', summary: 'next' })
    untouched.push(performance.now() - started)
    await recorder.settled()
  }
  const checkpoints = await recorder.journal.read()
  const missing = checkpoints.filter((checkpoint) => checkpoint.before.kind === 'missing')
  started = performance.now()
  const plan = await planRestore(recorder.workspace, checkpoints, 1)
  if ('error' in plan) throw new Error(plan.error)
  const planned = performance.now() - started
  const applied = await applyRestore(recorder.workspace, plan, { force: true })
  const restore = performance.now() - started
  if ('error' in applied) throw new Error(applied.error)
  const kib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1024).toFixed(1)} KiB`)
  console.log(`${kind === 'git' ? 'git repository' : 'outside git (content store)'}: ${FILES} files, ${CHANGED} changed per snapshot, ${ROUNDS} snapshots, ${watch ? 'file watcher on' : 'no file watcher (BENCH_WATCH=off)'}${missing.length ? ` (${missing.length} MISSING)` : ''}`)
  console.log(`  first (full) snapshot      ${ms(first)}   (the watcher's walk included)`)
  console.log(`  how snapshots read the tree ${[...scans].map(([kind, count]) => `${kind}: ${count}`).join(', ')}`)
  console.log(`  snapshot p50 / p95 / max   ${ms(quantile(times, 0.5))} / ${ms(quantile(times, 0.95))} / ${ms(Math.max(...times))}   (target p95 ≤ 100 ms)`)
  console.log(`  nothing changed since the last: p50 / p95 ${ms(quantile(untouched, 0.5))} / ${ms(quantile(untouched, 0.95))}   (the next call's checkpoint after a call's after-state)`)
  console.log(`  CPU per checkpoint (git too)${Number.isNaN(cpu) ? 'n/a' : ms(cpu / ROUNDS)}   (load average ${loadavg()[0]!.toFixed(1)})`)
  console.log(`  store growth / checkpoint  p50 ${kib(quantile(growth, 0.5))}, max ${kib(Math.max(...growth))}`)
  console.log(`  restore ${applied.restored.length} files over ${checkpoints.length - 2} checkpoints: plan ${ms(planned)}, plan + write ${ms(restore)}`)
  await recorder.close()
  await rm(root, { recursive: true, force: true })
}

export default async function bench(): Promise<void> {
  // BENCH_CHECKPOINTS=git (or content) runs one of the two.
  const only = process.env['BENCH_CHECKPOINTS']
  if (only !== 'content') await run('git')
  if (only !== 'git') await run('content')
}
