import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseServeArgs } from './serve'

const ROOT = join(import.meta.dirname, '..', '..')
const CLI_SOURCE = join(ROOT, 'src', 'cli', 'index.ts')
const CLI_BUILT = join(ROOT, 'out', 'main', 'cli.js')
const FIRST_LINE = /^Sous listening on http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})$/

let dir: string
const children: ChildProcess[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-cli-'))
  await mkdir(join(dir, 'renderer'))
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Sous</title>')
})
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Runs `sous …` from sources (or the build) as a real child process. */
function sous(args: string[], options: { built?: boolean } = {}): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<number | null>; stderr: () => string } {
  const command = options.built ? [CLI_BUILT, ...args] : ['--import', 'tsx', CLI_SOURCE, ...args]
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: { ...process.env, SOUS_HOME: join(dir, 'home'), SOUS_RENDERER_DIR: join(dir, 'renderer'), ANTHROPIC_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const lines = createInterface({ input: child.stdout! })
  const firstLine = new Promise<string>((resolve) => {
    lines.once('line', resolve)
    lines.once('close', () => resolve(''))
  })
  // 'close' (not 'exit'): by then stdout and stderr are fully read.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  return { child, firstLine, exit, stderr: () => stderr }
}

describe('sous serve (child process)', () => {
  it('prints the URL first, serves with the token, and shuts down cleanly on SIGTERM', async () => {
    const run = sous(['serve', '--port', '0'])
    const line = await run.firstLine
    const match = FIRST_LINE.exec(line)
    expect(match, `first line: ${line} / stderr: ${run.stderr()}`).not.toBeNull()
    const [, port, token] = match!
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(401)
    const res = await fetch(`http://127.0.0.1:${port}/?token=${token}`, { redirect: 'manual' })
    expect(res.status).toBe(303)
    run.child.kill('SIGTERM')
    expect(await run.exit).toBe(0)
  })

  it('refuses a non-loopback host without --allow-remote', async () => {
    const run = sous(['serve', '--host', '0.0.0.0'])
    expect(await run.exit).toBe(2)
    expect(await run.firstLine).toBe('')
    expect(run.stderr()).toMatch(/Refusing to listen on 0\.0\.0\.0.*--allow-remote/s)
  })

  it('warns loudly when --allow-remote is given', async () => {
    const run = sous(['serve', '--host', '0.0.0.0', '--port', '0', '--allow-remote'])
    expect(await run.firstLine).toMatch(/^Sous listening on http:\/\/0\.0\.0\.0:\d+\/\?token=[0-9a-f]{64}$/)
    run.child.kill('SIGINT')
    expect(await run.exit).toBe(0)
    expect(run.stderr()).toMatch(/WARNING: listening on 0\.0\.0\.0/)
  })

  it('answers --version, --help, an unknown option, and routes -p to headless mode', async () => {
    const version = sous(['--version'])
    expect(await version.firstLine).toMatch(/^\d+\.\d+\.\d+/)
    expect(await version.exit).toBe(0)
    const help = sous(['--help'])
    expect(await help.firstLine).toMatch(/^Sous /)
    const unknown = sous(['--frobnicate'])
    expect(await unknown.exit).toBe(2)
    // Headless mode is routed to runPrint; without a key it fails with a message, not a crash.
    const print = sous(['-p', 'hello'])
    expect(await print.exit).toBe(1)
    expect(print.stderr()).toMatch(/API key/)
  })

  it.skipIf(!existsSync(CLI_BUILT))('the built out/main/cli.js runs under plain node', async () => {
    const run = sous(['serve', '--port', '0'], { built: true })
    expect(await run.firstLine).toMatch(FIRST_LINE)
    run.child.kill('SIGTERM')
    expect(await run.exit).toBe(0)
  })
})

describe('parseServeArgs', () => {
  it('reads flags in both spellings and rejects nonsense', () => {
    expect(parseServeArgs([])).toEqual({ ok: true, args: { port: 0, host: '127.0.0.1', allowRemote: false } })
    expect(parseServeArgs(['--port=8080', '--host', '::1'])).toMatchObject({ ok: true, args: { port: 8080, host: '::1' } })
    expect(parseServeArgs(['--disallowedTools', 'Bash(rm *) WebFetch', '--settings', '{"permissions":{"ask":["Edit"]}}'])).toMatchObject({
      ok: true,
      args: { cliRules: { allowedTools: [], disallowedTools: ['Bash(rm *)', 'WebFetch'], settings: '{"permissions":{"ask":["Edit"]}}' } },
    })
    for (const bad of [['--port'], ['--port', 'x'], ['--port', '70000'], ['--host'], ['--nope'], ['--settings', '{bad'], ['--settings', '/no/such/settings.json'], ['--allowedTools']]) {
      expect(parseServeArgs(bad).ok, bad.join(' ')).toBe(false)
    }
  })
})
