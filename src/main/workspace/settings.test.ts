import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readPreferences, readPreferencesSync, updatePreferences } from './preferences'
import { readProjectSettings, settingsWarnings, validateSettingsText, writeProjectSettings } from './project-settings'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-settings-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('preferences', () => {
  it('defaults, saves under "sous" and keeps the other tools\' keys', async () => {
    expect(await readPreferences(dir)).toEqual({ theme: 'system', fontSize: 13 })
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Read'] }, sous: { theme: 'neon', fontSize: 15 } }),
    )
    // One bad value falls back to its default without losing the good one.
    expect(await readPreferences(dir)).toEqual({ theme: 'system', fontSize: 15 })
    expect(
      await updatePreferences(dir, { theme: 'dark', model: 'claude-x', baseUrl: 'http://127.0.0.1:9' }),
    ).toEqual({
      theme: 'dark',
      fontSize: 15,
      model: 'claude-x',
      baseUrl: 'http://127.0.0.1:9',
    })
    expect(await updatePreferences(dir, { baseUrl: '' })).not.toHaveProperty('baseUrl')
    const file = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))
    expect(file.permissions).toEqual({ allow: ['Read'] })
    expect(file.sous).toEqual({ theme: 'dark', fontSize: 15, model: 'claude-x' })
  })

  it('reads synchronously for a session that opens, with defaults for a missing or broken file', async () => {
    expect(readPreferencesSync(dir)).toEqual({ theme: 'system', fontSize: 13 })
    await updatePreferences(dir, { model: 'claude-x', permissionMode: 'plan' })
    expect(readPreferencesSync(dir)).toMatchObject({ model: 'claude-x', permissionMode: 'plan' })
    await writeFile(join(dir, 'settings.json'), '{ broken')
    expect(readPreferencesSync(dir)).toEqual({ theme: 'system', fontSize: 13 })
  })

  it('fails closed on a file that is not JSON, naming the line, and leaves it untouched', async () => {
    await writeFile(join(dir, 'settings.json'), '{\n  "permissions": {,\n}')
    await expect(updatePreferences(dir, { theme: 'dark' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('line 2'),
    })
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe('{\n  "permissions": {,\n}')
  })
})

describe('project settings', () => {
  it('reads both files, refuses invalid text with its position and saves valid text', async () => {
    expect((await readProjectSettings(dir)).map((f) => [f.name, f.exists])).toEqual([
      ['settings.json', false],
      ['settings.local.json', false],
    ])
    const broken = await writeProjectSettings(
      dir,
      'settings.json',
      '{\n  "permissions": {\n    "allow": ["Read",]\n  }\n}',
    )
    expect(broken.saved).toBe(false)
    expect(broken.problem?.line).toBe(3)
    const wrongType = validateSettingsText('{\n  "permissions": {\n    "allow": "Read"\n  }\n}')
    expect(wrongType).toMatchObject({ line: 3, message: expect.stringContaining('permissions.allow') })
    expect(
      await writeProjectSettings(dir, 'settings.local.json', '{ "permissions": { "allow": ["Read"] } }'),
    ).toEqual({ saved: true, warnings: [] })
    await mkdir(join(dir, '.claude'), { recursive: true })
    const files = await readProjectSettings(dir)
    expect(files[1]).toMatchObject({ exists: true, text: '{ "permissions": { "allow": ["Read"] } }' })
  })

  it('warns, at the key, about hook events that are typos or that Sous does not fire yet', async () => {
    const text = '{\n  "hooks": {\n    "PreToolUse": [],\n    "PostToolBatch": [],\n    "posttooluse": []\n  }\n}'
    expect(settingsWarnings(text)).toEqual([
      { line: 4, column: 5, message: expect.stringMatching(/PostToolBatch: Sous does not fire the PostToolBatch hook event yet/) },
      { line: 5, column: 5, message: expect.stringMatching(/"posttooluse" is not a hook event \(did you mean PostToolUse\?\)/) },
    ])
    const saved = await writeProjectSettings(dir, 'settings.json', text)
    expect(saved).toMatchObject({ saved: true, warnings: [{ line: 4 }, { line: 5 }] })
    expect((await readProjectSettings(dir))[0]?.warnings).toHaveLength(2)
    expect(settingsWarnings('{ broken')).toEqual([])
  })
})
