import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// What a process of the same user can read in /proc/<pid>/environ, measured on real processes: a
// Node child stands in for Sous, and its own child (a shell, as a hook would be) reads the file.
const MODULE = join(import.meta.dirname, 'own-credentials.ts')
const KEY = `sk-ant-test-${process.pid}-${Date.now()}`

/** Runs `body` (an ES module) in a fresh Node with the key in its start-up environment; returns its stdout as JSON. */
function inChild(body: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: KEY, ANTHROPIC_AUTH_TOKEN: `${KEY}-bearer` },
    encoding: 'utf8',
  })
  return JSON.parse(out) as Record<string, unknown>
}

/** Shell that prints the parent's start-up environment as a grandchild would read it. */
const READ_PARENT = `const { execFileSync } = await import('node:child_process')
const readParent = () => execFileSync('/bin/sh', ['-c', 'tr "\\\\0" "\\\\n" < /proc/' + process.pid + '/environ'], { encoding: 'utf8', env: {} })`

describe.runIf(process.platform === 'linux')('the model credentials and /proc/<pid>/environ', () => {
  it('deleting from process.env alone leaves the key in the start-up block (why sealing scrubs it)', () => {
    const seen = inChild(`${READ_PARENT}
delete process.env.ANTHROPIC_API_KEY
console.log(JSON.stringify({ env: process.env.ANTHROPIC_API_KEY ?? null, proc: readParent() }))`)
    expect(seen.env).toBeNull()
    expect(seen.proc).toContain(`ANTHROPIC_API_KEY=${KEY}`)
  })

  it('sealOwnCredentials removes both credentials from process.env and the block, and keeps them in its copy', () => {
    const seen = inChild(`${READ_PARENT}
const { sealOwnCredentials } = await import(${JSON.stringify(MODULE)})
const sealed = sealOwnCredentials()
console.log(JSON.stringify({ removed: sealed.removed, scrubbed: sealed.scrubbed, copy: sealed.env.ANTHROPIC_API_KEY, bearer: sealed.env.ANTHROPIC_AUTH_TOKEN,
  env: process.env.ANTHROPIC_API_KEY ?? null, home: process.env.HOME, proc: readParent() }))`)
    expect(seen).toMatchObject({ removed: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'], scrubbed: true, copy: KEY, bearer: `${KEY}-bearer`, env: null, home: process.env.HOME })
    expect(seen.proc).not.toContain(KEY)
    // The rest of the block is untouched.
    expect(seen.proc).toContain(`HOME=${process.env.HOME}`)
  })
})
