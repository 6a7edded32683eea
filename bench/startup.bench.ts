/**
 * Start-up figures (issue 30), each with its target:
 * 1. `sous -p hello` from spawn to exit, wall time and peak RSS, side by side with Claude Code
 *    2.1.328 and a bare `node -e 0` on the same scripted server, runs interleaved (sous, Claude
 *    Code, node, sous, …) so all three see the same machine load; medians and ratios
 *    (targets ≤ 0.25× Claude Code's wall time and peak RSS). Claude Code is `SOUS_BENCH_CLAUDE`, else
 *    `/tmp/cc/node_modules/.bin/claude` when it exists; without it that column is skipped, with a line
 *    saying so. `SOUS_BENCH_BASELINE=<another build's out/main/cli.js>` adds that build as a fourth
 *    column (before/after a change, on the same run).
 * 2. The first request on the wire after process start (target ≤ 120 ms) and its split, from the
 *    marks the CLI leaves with `SOUS_STARTUP_MARKS` (src/main/base/startup-marks.ts).
 * 3. `sous serve` in Chromium at 1440×900, five loads: first contentful paint (target ≤ 200 ms),
 *    long tasks during start (target: none over 50 ms), and the memory of an idle window with one
 *    project open (bench/startup-window.ts).
 * 4. The floor under 1 (bench/startup-floor.ts): `node -e 0`, then the builtins, zod and the SDK's
 *    Messages client loaded, beside this build's `-p hello`; only with `SOUS_BENCH_STARTUP=floor`.
 * `SOUS_BENCH_STARTUP=cli` or `=window` runs one half (`=floor` the floor alone). Needs a build (`npm run bench` builds first). Prints figures; asserts nothing. The machine may be
 * shared: the load average is printed, and only the ratios of one run compare builds.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { startModelServer, textReply, type ModelServer } from '../test/model-server'
import type { StartupMark } from '../src/main/base/startup-marks'
import { floorFigures } from './startup-floor'
import { windowFigures } from './startup-window'

const root = resolve(import.meta.dirname, '..')
const RUNS = 8
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const ms = (value: number) => `${value.toFixed(0)} ms`
const mib = (value: number) => `${value.toFixed(1)} MiB`

interface Run {
  wall: number
  rss: number
  /** User + system CPU seconds: moves less with the machine's load than wall time. */
  cpu: number
}

export default async function bench(): Promise<void> {
  const server = await startModelServer({ scenario: [textReply('Hello!')], loop: true })
  const base = await mkdtemp(join(tmpdir(), 'sous-bench-startup-'))
  try {
    console.log(`load average ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other work on the machine moves absolute figures; ratios of one run are what compare)`)
    const only = process.env['SOUS_BENCH_STARTUP']
    if (only === 'floor') await floorFigures(server, join(base, 'floor'), Number(process.env['BENCH_ROUNDS'] ?? RUNS))
    else {
      if (only !== 'window') await coldStarts(server, base)
      if (only !== 'cli') await windowFigures(server, join(base, 'window'))
    }
  } finally {
    await server.close()
    await rm(base, { recursive: true, force: true })
  }
}

/** 1 and 2: interleaved cold starts, then the split of Sous's way to its first request. */
async function coldStarts(server: ModelServer, base: string): Promise<void> {
  const project = join(base, 'project')
  const home = join(base, 'home')
  await mkdir(project, { recursive: true })
  await mkdir(home, { recursive: true })
  const claude = claudeBinary()
  const env = { PATH: process.env['PATH'], HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-bench' }
  const marksFile = join(base, 'marks.json')
  const sous = (): Promise<Run> => timed(['node', join(root, 'out/main/cli.js'), '-p', 'hello'], { ...env, SOUS_HOME: join(home, 'sous'), SOUS_STARTUP_MARKS: marksFile }, project)
  // As bench/long-context.bench.ts runs it: its own config folder, nothing non-essential on the network.
  const claudeCode = (binary: string): Promise<Run> =>
    timed([binary, '-p', 'hello'], { ...env, CLAUDE_CONFIG_DIR: join(home, '.claude'), IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' }, project)
  const bare = (): Promise<Run> => timed(['node', '-e', '0'], env, project)
  const baselineCli = process.env['SOUS_BENCH_BASELINE']
  if (baselineCli && !inModulePackage(baselineCli)) console.log(`  note: no package.json with "type": "module" above ${baselineCli}: Node 20 then detects each chunk's module format from its syntax, which made the same build ~2.9 MiB and ~20 ms CPU heavier; copy the project's package.json beside that build's main/ folder`)
  const baselineMarks = join(base, 'marks-baseline.json')
  const baseline = (cli: string): Promise<Run> => timed(['node', cli, '-p', 'hello'], { ...env, SOUS_HOME: join(home, 'sous'), SOUS_STARTUP_MARKS: baselineMarks }, project)
  const runs = { sous: [] as Run[], claude: [] as Run[], node: [] as Run[], baseline: [] as Run[] }
  const marks: Array<Partial<Record<StartupMark, number>>> = []
  const beforeWire: number[] = []
  // One warm-up round (page cache, the server's first connection), then RUNS interleaved rounds.
  for (let round = 0; round <= RUNS; round++) {
    const mine = await sous()
    const theirs = claude ? await claudeCode(claude) : undefined
    const floor = await bare()
    const before = baselineCli ? await baseline(baselineCli) : undefined
    if (round === 0) continue
    if (before) {
      runs.baseline.push(before)
      // A build older than the marks leaves none: its column says so.
      beforeWire.push(existsSync(baselineMarks) ? ((JSON.parse(readFileSync(baselineMarks, 'utf8')) as Partial<Record<StartupMark, number>>).wire ?? NaN) : NaN)
    }
    runs.sous.push(mine)
    if (theirs) runs.claude.push(theirs)
    runs.node.push(floor)
    marks.push(JSON.parse(readFileSync(marksFile, 'utf8')) as Partial<Record<StartupMark, number>>)
  }
  const wall = (list: Run[]) => median(list.map((run) => run.wall))
  const rss = (list: Run[]) => median(list.map((run) => run.rss))
  const cpu = (list: Run[]) => `${(median(list.map((run) => run.cpu)) * 1000).toFixed(0)} ms CPU`
  console.log(`sous -p "hello" to exit (built CLI, out/main/cli.js), medians of ${RUNS} interleaved runs after a warm-up round`)
  console.log(`  Sous:        ${ms(wall(runs.sous))} wall, ${mib(rss(runs.sous))} peak RSS, ${cpu(runs.sous)}`)
  if (claude) {
    console.log(`  Claude Code: ${ms(wall(runs.claude))} wall, ${mib(rss(runs.claude))} peak RSS, ${cpu(runs.claude)} (${claude})`)
    const wallRatio = wall(runs.sous) / wall(runs.claude)
    const rssRatio = rss(runs.sous) / rss(runs.claude)
    const cpuRatio = median(runs.sous.map((run) => run.cpu)) / median(runs.claude.map((run) => run.cpu))
    console.log(`  Sous / Claude Code: wall ×${wallRatio.toFixed(2)} (target ≤ 0.25${wallRatio <= 0.25 ? '' : ', OVER'}), peak RSS ×${rssRatio.toFixed(2)} (target ≤ 0.25${rssRatio <= 0.25 ? '' : ', OVER'}), CPU ×${cpuRatio.toFixed(2)}`)
  } else console.log('  Claude Code: skipped (not installed: set SOUS_BENCH_CLAUDE to the claude binary of @anthropic-ai/claude-code@2.1.328 to compare)')
  console.log(`  node -e 0:   ${ms(wall(runs.node))} wall, ${mib(rss(runs.node))} peak RSS, ${cpu(runs.node)} (the floor any Node program pays)`)
  if (baselineCli) console.log(`  baseline:    ${ms(wall(runs.baseline))} wall, ${mib(rss(runs.baseline))} peak RSS, ${cpu(runs.baseline)} (${baselineCli}); this build ×${(wall(runs.sous) / wall(runs.baseline)).toFixed(2)} wall, ×${(rss(runs.sous) / rss(runs.baseline)).toFixed(2)} RSS, ×${(median(runs.sous.map((run) => run.cpu)) / median(runs.baseline.map((run) => run.cpu))).toFixed(2)} CPU; its first request on the wire at ${ms(median(beforeWire))}`)
  split(marks)
}

/** 2. Process start → first request on the wire, and where the time went (medians of each step). */
function split(marks: Array<Partial<Record<StartupMark, number>>>): void {
  const steps: Array<[StartupMark, string]> = [
    ['modules', 'module load (CLI, print, runtime, model chunks)'],
    ['settings', 'settings read'],
    ['gate', 'permission gate ready'],
    ['prompt', 'system prompt assembled'],
    ['sdk', 'request handed to the SDK'],
    ['wire', 'request on the wire (SDK + HTTP)'],
  ]
  const wire = median(marks.map((mark) => mark.wire ?? NaN))
  console.log(`first request on the wire after process start: median ${ms(wire)} (target ≤ 120 ms${wire <= 120 ? '' : ', OVER'}); split, each from the mark before:`)
  let before: StartupMark | undefined
  for (const [name, label] of steps) {
    const at = median(marks.map((mark) => mark[name] ?? NaN))
    const step = median(marks.map((mark) => (mark[name] ?? NaN) - (before ? (mark[before] ?? NaN) : 0)))
    console.log(`  ${label.padEnd(48)} at ${ms(at).padStart(6)}  (+${ms(step)})`)
    before = name
  }
  console.log('  (steps overlap where the CLI runs them side by side: each is "since the previous mark", not its own cost)')
}

/** Whether the nearest package.json above `file` says `"type": "module"` (as out/main's does: the project's). */
function inModulePackage(file: string): boolean {
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module'
    if (dirname(dir) === dir) return false
  }
}

function claudeBinary(): string | undefined {
  const given = process.env['SOUS_BENCH_CLAUDE']
  if (given) return given
  const installed = '/tmp/cc/node_modules/.bin/claude'
  return existsSync(installed) ? installed : undefined
}

/** Runs `argv` under /usr/bin/time: wall ms from spawn to exit, peak RSS in MiB. Throws on failure. */
function timed(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const started = performance.now()
    const child = spawn('/usr/bin/time', ['-f', 'maxrss=%M cpu=%U+%S', ...argv], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = performance.now() - started
      const rss = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024
      const cpu = /cpu=([\d.]+)\+([\d.]+)/.exec(stderr)
      if (code !== 0) reject(new Error(`${argv.join(' ')} failed (${code}): ${stderr.trim().slice(0, 400)}`))
      else resolveRun({ wall, rss, cpu: Number(cpu?.[1] ?? NaN) + Number(cpu?.[2] ?? NaN) })
    })
  })
}
