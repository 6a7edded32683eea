import { execFileSync, spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'

// A cold `sous -p` outside any repository runs no git at all (base/git-discovery.ts); inside one it
// asks git as before, and the prompt still carries the git status. A `git` on PATH that logs each
// call and runs the real one tells which.
const CLI_BUILT = join(import.meta.dirname, '..', '..', 'out', 'main', 'cli.js')
const server = useModelServer()

let base: string
let log: string
let bin: string

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-startup-git-'))
  log = join(base, 'git-calls.log')
  bin = join(base, 'bin')
  await mkdir(bin)
  const realGit = execFileSync('which', ['git']).toString().trim()
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`)
  await chmod(join(bin, 'git'), 0o755)
})
afterEach(async () => {
  await rm(base, { recursive: true, force: true })
})

async function hello(project: string): Promise<{ code: number | null; stdout: string; gitCalls: string[]; system: string }> {
  server.setScenario([textReply('Hello!')])
  server.requests.length = 0
  const home = join(base, 'home')
  const child = spawn(process.execPath, [CLI_BUILT, '-p', 'hello'], {
    cwd: project,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, SOUS_HOME: join(home, 'sous'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.resume()
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  const gitCalls = existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean) : []
  const system = JSON.stringify(server.requests[0]?.body['system'] ?? '')
  return { code, stdout, gitCalls, system }
}

describe.skipIf(!existsSync(CLI_BUILT))('the built sous -p and git', () => {
  it('outside any repository answers without running git', async () => {
    const project = join(base, 'plain')
    await mkdir(project)
    const run = await hello(project)
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toBe('Hello!')
    expect(run.gitCalls).toEqual([])
    expect(run.system).not.toContain('# Git status')
  })

  it('inside a repository asks git, and the prompt carries its status', async () => {
    const project = join(base, 'repo')
    execFileSync('git', ['init', '-q', '-b', 'trunk', project])
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgSign=false', 'commit', '-q', '--allow-empty', '-m', 'first'], { cwd: project })
    const run = await hello(project)
    expect(run.code).toBe(0)
    expect(run.gitCalls.some((call) => call.includes('rev-parse'))).toBe(true)
    expect(run.system).toContain('# Git status')
    expect(run.system).toContain('Current branch: trunk')
  })
})
