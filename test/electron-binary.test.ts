import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findElectronBinary, NO_BINARY_MESSAGE, nodePtyLoadsUnder } from '../scripts/electron-binary'

const ROOT = join(import.meta.dirname, '..')
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sous-electron-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the Electron binary before npm start', () => {
  it('is found through path.txt or ELECTRON_EXEC_PATH, and missing otherwise', () => {
    expect(findElectronBinary({}, dir)).toEqual({ kind: 'missing', skipDownload: false })
    expect(findElectronBinary({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, dir)).toEqual({ kind: 'missing', skipDownload: true })
    writeFileSync(join(dir, 'path.txt'), 'electron')
    expect(findElectronBinary({}, dir).kind).toBe('missing')
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'electron'), '')
    expect(findElectronBinary({}, dir)).toEqual({ kind: 'ready', path: join(dir, 'dist', 'electron') })
    expect(findElectronBinary({ ELECTRON_EXEC_PATH: process.execPath }, join(dir, 'nowhere'))).toEqual({ kind: 'ready', path: process.execPath })
  })

  it('checks that node-pty loads under the runtime it is given', () => {
    // Node stands in for Electron's Node here (ELECTRON_RUN_AS_NODE makes Electron behave as Node).
    expect(nodePtyLoadsUnder(process.execPath, ROOT)).toBeUndefined()
    const broken = join(dir, 'broken-electron')
    writeFileSync(broken, '#!/bin/sh\necho "cannot load node-pty.node: wrong ELF class" >&2\nexit 1\n')
    chmodSync(broken, 0o755)
    expect(nodePtyLoadsUnder(broken, ROOT)).toContain('wrong ELF class')
  })

  it('with ELECTRON_SKIP_BINARY_DOWNLOAD and no binary, stops with a way forward instead of downloading', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'electron-binary.ts')], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_EXEC_PATH: '' },
      encoding: 'utf8',
    })
    if (findElectronBinary({}, join(ROOT, 'node_modules', 'electron')).kind === 'ready') return
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(NO_BINARY_MESSAGE.split('\n')[0])
    expect(run.stderr).toContain('npm run serve')
  })
})
