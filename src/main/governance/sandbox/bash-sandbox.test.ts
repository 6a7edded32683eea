import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxScratch } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'

let base: string
let project: string
let outside: string
let sandbox: BashSandbox | undefined
let unavailable = ''
const asked: string[] = []

beforeAll(async () => {
  // Outside the writable temp dirs on purpose: the sandbox makes tmpdir() writable.
  base = sandboxScratch('.sous-sandbox-test-')
  project = join(base, 'project')
  outside = join(base, 'outside')
  mkdirSync(project, { recursive: true })
  mkdirSync(outside, { recursive: true })
  const started = await BashSandbox.start({
    projectRoot: project,
    home: join(base, 'home'),
    allowedDomains: ['allowed.invalid'],
    askNetwork: async (host) => {
      asked.push(host)
      return false
    },
  })
  if (started.ok) sandbox = started.sandbox
  else unavailable = started.reason
}, 60_000)

afterAll(async () => {
  await sandbox?.dispose()
  rmSync(base, { recursive: true, force: true })
})

describe('BashSandbox', () => {
  it('reports availability with a reason', () => {
    if (!sandbox) console.warn(`skipping sandbox tests: ${unavailable}`)
    expect(sandbox !== undefined || unavailable.startsWith('sandbox unavailable:')).toBe(true)
  })

  it('write-protects .git in a folder that is not yet a repository', () => {
    const cfg = BashSandbox.configFor({ projectRoot: project })
    expect(cfg.filesystem.denyWrite).toContain(join(project, '.git'))
  })

  it.runIf(process.platform === 'linux')('lets a write inside the project through and blocks one outside', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    const inside = await sandbox.run(`echo in > ${join(project, 'inside.txt')}`, { cwd: project })
    expect(inside.exitCode).toBe(0)
    expect(readFileSync(join(project, 'inside.txt'), 'utf8')).toBe('in\n')
    const out = await sandbox.run(`echo out > ${join(outside, 'outside.txt')}`, { cwd: project })
    expect(out.exitCode).not.toBe(0)
    expect(out.stderr).toMatch(/Read-only file system|Permission denied/)
    expect(existsSync(join(outside, 'outside.txt'))).toBe(false)
  })

  it.runIf(process.platform === 'linux')('refuses a host outside the allowed domains and reports the violation', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    // Only the sandbox's own proxy is contacted; the host never resolves, no traffic leaves the machine.
    const r = await sandbox.run('curl -sS -f -o /dev/null -w "%{http_code}" --max-time 20 http://example.invalid/', { cwd: project, commandId: 'net-test-0123456789abcdef' })
    expect(r.exitCode, r.stderr).not.toBe(0)
    expect(r.stdout).toBe('403')
    expect(asked).toContain('example.invalid')
    expect(r.stderr).toMatch(/sandbox_violations[\s\S]*example\.invalid/)
  })

  it.runIf(process.platform === 'linux')('hides credential folders', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    const r = await sandbox.run(`ls ${join(base, 'home', '.ssh')}/id_rsa`, { cwd: project })
    expect(r.exitCode).not.toBe(0)
  })
})
