import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..', '..')

/**
 * How to start the real `sous` command in a child process: the built CLI when there is one (as
 * installed), else the sources through tsx (slower to start, same code).
 */
export function sousCommand(): string[] {
  const built = join(ROOT, 'out', 'main', 'cli.js')
  return existsSync(built) && process.env['SOUS_TEST_FROM_SOURCES'] !== '1' ? ['node', join(ROOT, 'bin', 'sous.js')] : ['node', '--import', 'tsx', join(ROOT, 'src', 'cli', 'index.ts')]
}

/** Starts `sous host --stdio …` as a real process with `env` (nothing of this process's environment but PATH). */
export function spawnHost(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const [program, ...rest] = sousCommand()
  return spawn(program!, [...rest, 'host', '--stdio', ...args], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
}
