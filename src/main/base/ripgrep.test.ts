import { execFileSync } from 'node:child_process'
import { isAbsolute } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findRipgrep, ripgrepCommand, unpackedFromAsar } from './ripgrep'

describe('ripgrep', () => {
  it('is the bundled binary, an absolute path that runs without any rg on PATH', async () => {
    const command = await ripgrepCommand()
    expect(isAbsolute(command)).toBe(true)
    const version = execFileSync(command, ['--version'], { env: { PATH: '/nonexistent' }, encoding: 'utf8' })
    expect(version).toMatch(/^ripgrep \d+\.\d+/)
  })

  it('falls back to rg on PATH when the bundled package is missing or not executable', async () => {
    expect(await findRipgrep(() => Promise.reject(new Error('Could not find @vscode/ripgrep-linux-x64')))).toBe('rg')
    expect(await findRipgrep(async () => ({ rgPath: '/nowhere/rg' }))).toBe('rg')
  })

  it('points into app.asar.unpacked when packaged', () => {
    expect(unpackedFromAsar('/opt/Sous/resources/app.asar/node_modules/@vscode/ripgrep-linux-x64/bin/rg')).toBe(
      '/opt/Sous/resources/app.asar.unpacked/node_modules/@vscode/ripgrep-linux-x64/bin/rg',
    )
    expect(unpackedFromAsar('C:\\Sous\\resources\\app.asar\\node_modules\\x\\rg.exe')).toBe('C:\\Sous\\resources\\app.asar.unpacked\\node_modules\\x\\rg.exe')
    expect(unpackedFromAsar('/home/me/sous/node_modules/@vscode/ripgrep-linux-x64/bin/rg')).toBe('/home/me/sous/node_modules/@vscode/ripgrep-linux-x64/bin/rg')
    expect(unpackedFromAsar('/x/app.asar.unpacked/rg')).toBe('/x/app.asar.unpacked/rg')
  })
})
