import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'

const asked: string[] = []
// Outside the writable temp dirs on purpose: the sandbox makes tmpdir() writable.
const base = sandboxScratch('.sous-sandbox-test-')
const project = join(base, 'project')
const outside = join(base, 'outside')
mkdirSync(project, { recursive: true })
mkdirSync(outside, { recursive: true })
// Started while the file is collected, so a skipped test's title can say why.
const started = await BashSandbox.start({
  projectRoot: project,
  home: join(base, 'home'),
  allowedDomains: ['allowed.invalid'],
  askNetwork: async (host) => {
    asked.push(host)
    return false
  },
})
const unavailable = sandboxPlatformProblem() ?? (started.ok ? undefined : started.reason)
// Only the tests that skip when `unavailable` is set use it.
const sandbox = (started.ok ? started.sandbox : undefined) as BashSandbox

afterAll(async () => {
  await sandbox?.dispose()
  rmSync(base, { recursive: true, force: true })
})

describe('BashSandbox', () => {
  it('reports availability with a reason', () => {
    expect(started.ok || started.reason.startsWith('sandbox unavailable:')).toBe(true)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('lets a write inside the project through and blocks one outside', unavailable), async () => {
    const inside = await sandbox.run(`echo in > ${join(project, 'inside.txt')}`, { cwd: project })
    expect(inside.exitCode).toBe(0)
    expect(readFileSync(join(project, 'inside.txt'), 'utf8')).toBe('in\n')
    const out = await sandbox.run(`echo out > ${join(outside, 'outside.txt')}`, { cwd: project })
    expect(out.exitCode).not.toBe(0)
    expect(out.stderr).toMatch(/Read-only file system|Permission denied/)
    expect(existsSync(join(outside, 'outside.txt'))).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('refuses a host outside the allowed domains and reports the violation', unavailable), async () => {
    // Only the sandbox's own proxy is contacted; the host never resolves, no traffic leaves the machine.
    const r = await sandbox.run('curl -sS -f -o /dev/null -w "%{http_code}" --max-time 20 http://example.invalid/', { cwd: project, commandId: 'net-test-0123456789abcdef' })
    expect(r.exitCode, r.stderr).not.toBe(0)
    expect(r.stdout).toBe('403')
    expect(asked).toContain('example.invalid')
    expect(r.stderr).toMatch(/sandbox_violations[\s\S]*example\.invalid/)
  })

  it('names each writable folder once (the library binds every entry it is given, a repeated /tmp twice)', () => {
    const config = BashSandbox.configFor({ projectRoot: project, allowWrite: ['/tmp', project] })
    const roots = config.filesystem.allowWrite.map((entry) => (typeof entry === 'string' ? entry : entry.path))
    expect(roots).toEqual([...new Set(roots)])
    expect(roots).toEqual(expect.arrayContaining([project, '/tmp']))
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('hides credential folders', unavailable), async () => {
    const r = await sandbox.run(`ls ${join(base, 'home', '.ssh')}/id_rsa`, { cwd: project })
    expect(r.exitCode).not.toBe(0)
  })
})
