import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Runs git in `cwd` for a test (a fixed identity, no user configuration); returns stdout. */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgSign=false', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } })
}

/** Makes `root` a git repository on `main` with `files` committed (paths relative, `/`-separated). */
export function makeRepository(root: string, files: Record<string, string>): void {
  mkdirSync(root, { recursive: true })
  gitIn(root, 'init', '-q', '-b', 'main')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  gitIn(root, 'add', '-A')
  gitIn(root, 'commit', '-q', '-m', 'first')
}
