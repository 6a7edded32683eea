import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic, writeFileAtomicSync } from './atomic-write'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sous-atomic-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const variants = [
  ['async', (file: string, data: string, mode?: number) => writeFileAtomic(file, data, mode)],
  ['sync', async (file: string, data: string, mode?: number) => writeFileAtomicSync(file, data, mode)],
] as const

describe.each(variants)('atomic write (%s)', (_name, write) => {
  it('creates the folder, writes the data and leaves no temp file', async () => {
    const file = join(dir, 'a', 'b', 'settings.json')
    await write(file, '{"x":1}\n')
    expect(readFileSync(file, 'utf8')).toBe('{"x":1}\n')
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['settings.json'])
  })

  it('replaces an existing file and gives a new one the requested mode', async () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, 'old')
    await write(file, 'new')
    expect(readFileSync(file, 'utf8')).toBe('new')
    const fresh = join(dir, 'fresh.json')
    await write(fresh, 'x', 0o644)
    expect(statSync(fresh).mode & 0o777).toBe(0o644)
  })

  it('throws and removes its temp file when the rename fails, leaving the target as it was', async () => {
    // A folder where the file should go: the temp file is written, the rename over it fails.
    const target = join(dir, 'taken')
    mkdirSync(target)
    writeFileSync(join(target, 'inside'), 'kept')
    await expect(write(target, 'data')).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['taken'])
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept')
  })
})
