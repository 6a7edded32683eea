import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeStaging, removeStaleStaging } from './restore-staging'

/**
 * The staging folders of restores, on a real disk: one a crashed restore left in the project is
 * removed by the next restore; one a running restore (this process, another live one) uses stays.
 */

let root: string
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** A process id that no process has now: a child's that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  return Number(child.stdout.trim())
}

describe('restore staging folders', () => {
  it("removes a crashed restore's folder and an hour-old unnamed one, and keeps live ones and other files", async () => {
    root = mkdtempSync(join(tmpdir(), 'sous-staging-'))
    const folder = (name: string) => {
      mkdirSync(join(root, name))
      writeFileSync(join(root, name, '0'), 'staged')
      return name
    }
    const crashed = folder(`.sous-restore-${deadPid()}-a1b2c3`)
    const ours = folder(`.sous-restore-${process.pid}-d4e5f6`)
    const parent = folder(`.sous-restore-${process.ppid}-g7h8i9`)
    const oldUnnamed = folder('.sous-restore-Xy12Zw')
    const anHourAgo = new Date(Date.now() - 61 * 60 * 1000)
    utimesSync(join(root, oldUnnamed), anHourAgo, anHourAgo)
    const newUnnamed = folder('.sous-restore-Ab34Cd')
    writeFileSync(join(root, '.sous-restore-notes'), 'a file of the user')
    await removeStaleStaging(root)
    expect(readdirSync(root).sort()).toEqual([ours, parent, newUnnamed, '.sous-restore-notes'].sort())
    expect(existsSync(join(root, crashed))).toBe(false)
  })

  it('makes a folder named with this process in the project root, after clearing stale ones', async () => {
    root = mkdtempSync(join(tmpdir(), 'sous-staging-'))
    mkdirSync(join(root, `.sous-restore-${deadPid()}-zzzzzz`))
    const staging = await makeStaging(root)
    expect(dirname(staging)).toBe(root)
    expect(basename(staging)).toMatch(new RegExp(`^\\.sous-restore-${process.pid}-\\w{6}$`))
    expect(readdirSync(root)).toEqual([basename(staging)])
  })

  it('does nothing where the project root cannot be read', async () => {
    root = join(tmpdir(), 'sous-staging-absent')
    await expect(removeStaleStaging(root)).resolves.toBeUndefined()
  })
})
