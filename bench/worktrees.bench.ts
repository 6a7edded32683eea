/**
 * Worktree sessions (issue 27): the time to create a worktree session on a 10,000-file repository
 * with a `.worktreeinclude` that copies 20 ignored files (`.env` and friends) — `git worktree add`,
 * the lock, the include copy, the registry and opening the session, as "New session" with the
 * Worktree box and `sous -p --worktree` do it (target ≤ 1.5 s). Also the same with
 * `worktree.sparsePaths` naming a tenth of the tree. Real git, real files in a temp folder, the
 * real session runtime (no model request is made to open a session). Prints figures; asserts
 * nothing. Figures swing with machine load: run it alone.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEventHub } from '../src/main/base/event-hub'
import { NodePtyService } from '../src/main/pty/node-pty-service'
import { createSessionRuntime } from '../src/main/runtime/runtime'
import { ms, quantile } from './frames'

const FILES = 10_000
const INCLUDED = 20
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 8)

async function seed(project: string): Promise<void> {
  for (let folder = 0; folder < 100; folder++) {
    await mkdir(join(project, `pkg-${folder}`), { recursive: true })
    for (let file = 0; file < FILES / 100; file++) await writeFile(join(project, `pkg-${folder}`, `file-${file}.ts`), `export const value${file} = ${folder * 1000 + file}\n`.repeat(20))
  }
  await mkdir(join(project, 'config'), { recursive: true })
  for (let file = 0; file < INCLUDED; file++) await writeFile(join(project, 'config', `secret-${file}.env`), `KEY_${file}=value\n`)
  await writeFile(join(project, '.gitignore'), 'config/*.env\nnode_modules/\n')
  await writeFile(join(project, '.worktreeinclude'), 'config/*.env\n')
  // An ignored folder the include never walks into.
  await mkdir(join(project, 'node_modules', 'big'), { recursive: true })
  for (let file = 0; file < 500; file++) await writeFile(join(project, 'node_modules', 'big', `m-${file}.js`), 'module.exports = 1\n')
}

async function measure(label: string, settings: object | undefined): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'sous-bench-worktrees-'))
  const project = join(root, 'project')
  const home = join(root, 'home')
  await mkdir(project)
  await seed(project)
  if (settings) {
    await mkdir(join(project, '.claude'), { recursive: true })
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify(settings))
  }
  const env = { ...process.env, SOUS_HOME: home, HOME: root, ANTHROPIC_API_KEY: 'bench' }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: project, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'seed')
  const hub = createEventHub()
  const pty = new NodePtyService({ env })
  const runtime = createSessionRuntime({ home, env, hub, pty, permissionMode: 'default', answerer: 'unattended', userHome: root })
  const times: number[] = []
  let copied = 0
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      const created = await runtime.worktrees.createSession(project, { name: `bench-${round}` })
      times.push(performance.now() - started)
      copied = created.worktree.copied?.length ?? 0
    }
  } finally {
    await runtime.dispose()
    await pty.dispose()
    await rm(root, { recursive: true, force: true })
  }
  console.log(`${label}: create a worktree session (${FILES} files, ${copied} copied by .worktreeinclude), ${ROUNDS} rounds: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, first ${ms(times[0])} (target ≤ 1500 ms)`)
}

export default async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
  await measure('full checkout', undefined)
  await measure('sparse (pkg-0 … pkg-9)', { worktree: { sparsePaths: Array.from({ length: 10 }, (_, i) => `pkg-${i}`) } })
}
