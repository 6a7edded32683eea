import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findOnPath } from './tool-paths'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('findOnPath', () => {
  it('finds what `which` finds: the first executable file of the name, skipping folders, plain files and relative entries', () => {
    const base = mkdtempSync(join(tmpdir(), 'sous-which-'))
    dirs.push(base)
    for (const folder of ['a', 'b', 'c', 'd']) mkdirSync(join(base, folder))
    mkdirSync(join(base, 'a', 'tool')) // a folder of that name
    writeFileSync(join(base, 'b', 'tool'), 'not executable')
    writeFileSync(join(base, 'c', 'tool'), '#!/bin/sh\n')
    chmodSync(join(base, 'c', 'tool'), 0o755)
    writeFileSync(join(base, 'd', 'tool'), '#!/bin/sh\n')
    chmodSync(join(base, 'd', 'tool'), 0o755)
    const path = ['relative/dir', join(base, 'a'), join(base, 'b'), join(base, 'c'), join(base, 'd')].join(':')
    expect(findOnPath('tool', path)).toBe(join(base, 'c', 'tool'))
    expect(findOnPath('absent', path)).toBeUndefined()
    expect(findOnPath('tool', undefined)).toBeUndefined()
  })
})
