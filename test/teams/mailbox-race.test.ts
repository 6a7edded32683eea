import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TeamMailboxes, type MailboxProblem } from '../../src/main/store/teams/mailbox'

const ROOT = join(import.meta.dirname, '..', '..')
const MEMBER = join(import.meta.dirname, 'mailbox-member.ts')
let base: string

afterEach(() => rmSync(base, { recursive: true, force: true }))

/** Runs one member process to its end; resolves with its report. */
function member(teamDir: string, name: string, others: string[], count: number, expected: number): Promise<{ name: string; sent: number; received: string[]; problems: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MEMBER, teamDir, name, others.join(','), String(count), String(expected), '5'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += String(chunk)))
    child.stderr.on('data', (chunk) => (err += String(chunk)))
    child.on('error', reject)
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`${name} exited ${code}: ${err.slice(-2000)}`))
      else resolve(JSON.parse(last))
    })
  })
}

describe('team mailboxes', () => {
  it('a lead and two teammates, each its own process, exchange 1,002 messages under concurrent writes: none lost, none twice', async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-mailbox-'))
    const names = ['team-lead', 'alice', 'bob']
    const count = 334
    const reports = await Promise.all(names.map((name) => member(base, name, names.filter((other) => other !== name), count, count)))
    const all = reports.flatMap((report) => report.received)
    expect(all).toHaveLength(names.length * count)
    expect(new Set(all).size).toBe(all.length)
    for (const report of reports) {
      expect(report.problems).toEqual([])
      expect(report.sent).toBe(count)
      // Each sender's messages arrive in the order it sent them.
      for (const sender of names.filter((name) => name !== report.name)) {
        const indexes = report.received.filter((line) => line.startsWith(`${sender}>`)).map((line) => Number(line.split(':')[1]))
        expect(indexes).toEqual([...indexes].sort((a, b) => a - b))
        expect(indexes).toHaveLength(count / 2)
      }
    }
    // Every mailbox was emptied by its reader; no lock is left behind.
    for (const name of names) expect(JSON.parse(readFileSync(join(base, 'inboxes', `${name}.json`), 'utf8'))).toEqual([])
    expect(readdirSync(join(base, 'inboxes')).filter((file) => file.endsWith('.lock'))).toEqual([])
  }, 120_000)

  it('reports a damaged mailbox (not JSON, cut off mid-write), keeps its content aside and goes on', async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-mailbox-'))
    const problems: MailboxProblem[] = []
    const mailboxes = new TeamMailboxes(base, (problem) => problems.push(problem))
    mkdirSync(join(base, 'inboxes'), { recursive: true })
    const file = join(base, 'inboxes', 'alice.json')
    const truncated = '[{"from":"bob","text":"half of a mess'
    writeFileSync(file, truncated)
    // A reader without the lock skips it and says so; nothing crashes.
    expect(await mailboxes.read('alice')).toEqual([])
    expect(problems[0]).toMatchObject({ file, message: expect.stringContaining('not JSON') })
    // A writer moves the damage aside (nothing is lost) and the mailbox goes on.
    await mailboxes.send('alice', { from: 'bob', text: 'after the damage' })
    const kept = problems.at(-1)!.keptAt!
    expect(readFileSync(kept, 'utf8')).toBe(truncated)
    expect((await mailboxes.take('alice')).map((message) => message.text)).toEqual(['after the damage'])
    // An entry that is no message is skipped and reported; the valid ones are delivered.
    writeFileSync(file, JSON.stringify([{ from: 'bob' }, { from: 'bob', text: 'fine', timestamp: new Date().toISOString() }]))
    expect((await mailboxes.take('alice')).map((message) => message.text)).toEqual(['fine'])
    expect(problems.at(-1)!.message).toMatch(/1 entry is not/)
    // A top level that is no array.
    writeFileSync(file, '{"oops":true}')
    expect(await mailboxes.take('alice')).toEqual([])
    expect(problems.at(-1)!.message).toMatch(/not an array/)
  })

  it('refuses a member name that would leave the inboxes folder', () => {
    base = mkdtempSync(join(tmpdir(), 'sous-mailbox-'))
    const mailboxes = new TeamMailboxes(base)
    expect(() => mailboxes.pathOf('../config')).toThrow(/not a usable member name/)
  })
})
