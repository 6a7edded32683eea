/**
 * The floor under `sous -p hello` (issue 30), for `SOUS_BENCH_STARTUP=floor`: what Node itself
 * costs before a line of Sous runs. Five programs, run interleaved under `/usr/bin/time` (wall,
 * peak RSS; CPU from `perf stat`'s task-clock where perf is installed, else time's 10 ms user +
 * system): `node -e 0`; node importing the builtins a request needs (those the CLI's chunks on the
 * hello path import); the same plus zod with one schema parsed; the same plus the SDK's Messages
 * client (`BaseAnthropic` + `Messages`, as `services/model/anthropic-model-service.ts` builds it),
 * constructed but sending nothing; and the built CLI's `-p hello` itself. zod and the SDK are
 * bundled into one file each with rolldown (as the CLI's own build bundles them), so module
 * resolution over `node_modules` is not what is measured. Prints medians; asserts nothing.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import type { ModelServer } from '../test/model-server'

const root = resolve(import.meta.dirname, '..')

const BUILTINS = ['http', 'https', 'crypto', 'child_process', 'net', 'fs', 'fs/promises', 'os', 'path', 'events', 'url', 'stream', 'timers/promises', 'module', 'v8']
const builtins = BUILTINS.map((name, i) => `import * as b${i} from 'node:${name}'`).join('\n') + `\nglobalThis.keep = [${BUILTINS.map((_, i) => `b${i}`).join(', ')}]\n`
const zod = `import { z } from 'zod'\nglobalThis.parsed = z.strictObject({ a: z.string(), b: z.number().optional() }).parse({ a: 'x' })\n`
const sdk = `import { BaseAnthropic } from '@anthropic-ai/sdk/client'\nimport { Messages } from '@anthropic-ai/sdk/resources/messages/messages'\nclass Client extends BaseAnthropic { messages = new Messages(this) }\nglobalThis.client = new Client({ apiKey: 'sk-ant-floor', baseURL: process.env.ANTHROPIC_BASE_URL })\n`

interface Figure {
  wall: number
  rss: number
  cpu: number
}

/** Writes the floor programs into `dir` (bundled where they import packages) and runs them interleaved. */
export async function floorFigures(server: ModelServer, dir: string, rounds: number): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n')
  const sources = { builtins, zod: builtins + zod, sdk: builtins + zod + sdk }
  for (const [name, text] of Object.entries(sources)) await writeFile(join(dir, `${name}.src.mjs`), text)
  const { build } = await import('rolldown')
  for (const name of Object.keys(sources)) {
    await build({ input: join(dir, `${name}.src.mjs`), platform: 'node', cwd: root, resolve: { modules: [join(root, 'node_modules')] }, output: { file: join(dir, `${name}.mjs`), format: 'esm', codeSplitting: false }, logLevel: 'silent' })
  }
  const env = { PATH: process.env['PATH'], HOME: join(dir, 'home'), SOUS_HOME: join(dir, 'home', 'sous'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-bench' }
  await mkdir(env.HOME, { recursive: true })
  const programs: Array<[string, string[]]> = [
    ['node -e 0', ['-e', '0']],
    ['+ the builtins a request needs', [join(dir, 'builtins.mjs')]],
    ['+ zod', [join(dir, 'zod.mjs')]],
    ["+ the SDK's Messages client", [join(dir, 'sdk.mjs')]],
    ['sous -p hello (this build)', [join(root, 'out/main/cli.js'), '-p', 'hello']],
  ]
  const perf = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true'], { encoding: 'utf8' }).stderr?.includes('task-clock') === true
  const figures = programs.map((): Figure[] => [])
  const loads = [loadavg()[0] ?? NaN]
  for (let round = 0; round <= rounds; round++) {
    // The order alternates, so that no program always follows the same one.
    const order = programs.map((_, i) => i)
    if (round % 2 === 1) order.reverse()
    for (const i of order) {
      const figure = await timed(programs[i]![1], env, dir, perf)
      if (round > 0) figures[i]!.push(figure)
    }
    loads.push(loadavg()[0] ?? NaN)
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
  console.log(`the floor: medians of ${rounds} interleaved runs after a warm-up round, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (CPU from ${perf ? 'perf task-clock' : '/usr/bin/time, 10 ms steps'})`)
  for (const [i, [label]] of programs.entries()) {
    const list = figures[i]!
    console.log(`  ${label.padEnd(34)} ${median(list.map((f) => f.wall)).toFixed(0).padStart(5)} ms wall  ${median(list.map((f) => f.rss)).toFixed(1).padStart(5)} MiB peak RSS  ${median(list.map((f) => f.cpu)).toFixed(0).padStart(4)} ms CPU`)
  }
}

function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string, perf: boolean): Promise<Figure> {
  const timedArgv = ['/usr/bin/time', '-f', 'maxrss=%M cpu=%U+%S', 'node', ...args]
  const argv = perf ? ['perf', 'stat', '-x,', '-e', 'task-clock', ...timedArgv] : timedArgv
  return new Promise((resolveRun, reject) => {
    const started = performance.now()
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = performance.now() - started
      if (code !== 0) return reject(new Error(`${argv.join(' ')} failed (${code}): ${stderr.trim().slice(0, 400)}`))
      const rss = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024
      const clock = /^([\d.]+),msec,task-clock/m.exec(stderr)
      const time = /cpu=([\d.]+)\+([\d.]+)/.exec(stderr)
      resolveRun({ wall, rss, cpu: clock ? Number(clock[1]) : (Number(time?.[1] ?? NaN) + Number(time?.[2] ?? NaN)) * 1000 })
    })
  })
}
