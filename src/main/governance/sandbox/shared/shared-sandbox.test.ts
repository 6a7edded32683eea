import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxScratch } from '../../../../../test/support/sandbox-scratch'
import { childEnvironment } from '../../../base/child-env'
import { grantTrust, trustStatus } from '../../trust/trust'
import type { BashSandboxPort } from '../../../tools/bash-sandbox'
import { NetworkAsks } from './network-asks'
import { SharedSandbox } from './shared-sandbox'

// Two real projects in one process, each sandboxed by the one library with its own configuration.
let base: string
let first: string
let second: string
let sandbox: SharedSandbox
let ports: { first: BashSandboxPort; second: BashSandboxPort } | undefined
let unavailable = ''

beforeAll(async () => {
  // Outside the temp dirs, which every sandbox leaves writable.
  base = sandboxScratch('.sous-projects-sandbox-')
  first = join(base, 'first')
  second = join(base, 'second')
  const sousHome = join(base, 'sous-home')
  for (const dir of [first, second, sousHome]) mkdirSync(dir, { recursive: true })
  for (const dir of [first, second]) execFileSync('git', ['init', '-q', dir])
  // The second project lets its sandbox write one more folder (its trusted settings say so).
  mkdirSync(join(base, 'second-cache'))
  mkdirSync(join(second, '.claude'))
  writeFileSync(join(second, '.claude', 'settings.json'), JSON.stringify({ sandbox: { filesystem: { allowWrite: [join(base, 'second-cache')] } } }))
  expect(grantTrust(second, sousHome, trustStatus(second, sousHome).fingerprint).ok).toBe(true)
  sandbox = new SharedSandbox({ home: sousHome, userHome: join(base, 'home'), projectTrust: 'check' }, new NetworkAsks())
  const [a, b] = await Promise.all([sandbox.acquire(first, 's1'), sandbox.acquire(second, 's2')])
  // Where the OS sandbox works at all, the second project must get one too (not "serving another project").
  if (a?.available) ports = { first: a.sandbox, second: b?.available ? b.sandbox : failed(b) }
  else unavailable = a?.reason ?? 'no sandbox'
}, 60_000)

afterAll(async () => {
  await sandbox.dispose()
  rmSync(base, { recursive: true, force: true })
})

function failed(state: Awaited<ReturnType<SharedSandbox['acquire']>>): never {
  throw new Error(`the second project got no sandbox: ${state?.available === false ? state.reason : 'none'}`)
}

/** Runs `command` wrapped by `port` in `cwd`; the id is returned for assertions. */
async function run(port: BashSandboxPort, command: string, cwd: string, commandId = `sous-test-${randomBytes(16).toString('base64url')}`): Promise<{ code: number | null; out: string }> {
  const wrapped = await port.wrap(command, { commandId, commandText: command })
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', ['-c', wrapped], { cwd, env: childEnvironment(process.env), stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) => {
      port.cleanup?.(commandId)
      resolve({ code, out })
    })
  })
}

describe.runIf(process.platform === 'linux')('a sandbox per project', () => {
  it('confines each project to itself, at the same time, with its own settings', async (t) => {
    if (!ports) return t.skip(unavailable)
    const [a, b] = await Promise.all([
      run(ports.first, `echo a > ${join(first, 'mine.txt')}; echo a > ${join(second, 'theirs.txt')}; echo a > ${join(base, 'second-cache', 'a.txt')}; echo done`, first),
      run(ports.second, `echo b > ${join(second, 'mine.txt')}; echo b > ${join(first, 'theirs.txt')}; echo b > ${join(base, 'second-cache', 'b.txt')}; echo done`, second),
    ])
    expect(a.out).toContain('done')
    expect(b.out).toContain('done')
    expect(existsSync(join(first, 'mine.txt'))).toBe(true)
    expect(existsSync(join(second, 'mine.txt'))).toBe(true)
    expect(existsSync(join(second, 'theirs.txt'))).toBe(false)
    expect(existsSync(join(first, 'theirs.txt'))).toBe(false)
    // Only the project whose settings allow the extra folder may write there.
    expect(existsSync(join(base, 'second-cache', 'b.txt'))).toBe(true)
    expect(existsSync(join(base, 'second-cache', 'a.txt'))).toBe(false)
  })

  it("keeps one command's proxy credentials out of another's reach", async (t) => {
    if (!ports) return t.skip(unavailable)
    const secretId = `sous-test-${randomBytes(16).toString('base64url')}`
    const encoded = Buffer.from(secretId).toString('base64').replace(/=+$/, '')
    const sleeper = run(ports.first, 'sleep 4', first, secretId)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    // Everything another sandboxed command could read about its neighbours: processes, environments,
    // command lines. The patterns go in reversed (and are turned round inside), so the probe's own
    // command line does not hold what it looks for.
    const reversed = (text: string) => [...text].reverse().join('')
    const probe = await run(
      ports.second,
      `cat /proc/*/environ /proc/*/cmdline 2>/dev/null | tr '\\0' '\\n' | grep -c -F -f <(printf '%s\\n%s\\n' '${reversed(secretId)}' '${reversed(encoded)}' | rev); echo "own=$(printenv HTTP_PROXY | grep -c srt.)"`,
      second,
    )
    await sleeper
    expect(probe.out).toMatch(/^0\s*$/m)
    // It has its own credentials (the check above could see them).
    expect(probe.out).toContain('own=1')
  })
})
