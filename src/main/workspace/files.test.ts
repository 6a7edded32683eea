import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listFolder, readProjectFile } from './files'

let root: string
let outside: string
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'sous-files-')))
  outside = await realpath(await mkdtemp(join(tmpdir(), 'sous-files-out-')))
  await writeFile(join(root, '.gitignore'), 'build/\n*.log\n')
  await mkdir(join(root, 'src', 'gen'), { recursive: true })
  await mkdir(join(root, 'build'))
  await mkdir(join(root, '.git'))
  await writeFile(join(root, 'src', '.gitignore'), 'gen/\n')
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1\n')
  await writeFile(join(root, 'src', 'gen', 'x.ts'), '')
  await writeFile(join(root, 'debug.log'), 'noise')
  await writeFile(join(root, 'README.md'), '# hi\n')
  await writeFile(join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]))
  await writeFile(join(outside, 'secret.txt'), 'secret')
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

describe('listFolder', () => {
  it('lists folders first, leaves out .git and what .gitignore files ignore, at every level', async () => {
    expect(await listFolder(root, '')).toEqual([
      { name: 'src', path: 'src', kind: 'dir' },
      { name: '.gitignore', path: '.gitignore', kind: 'file' },
      { name: 'image.bin', path: 'image.bin', kind: 'file' },
      { name: 'README.md', path: 'README.md', kind: 'file' },
    ])
    expect((await listFolder(root, 'src')).map((e) => e.path)).toEqual(['src/.gitignore', 'src/a.ts'])
  })

  it('refuses paths that leave the project, through .. or a symlink', async () => {
    await symlink(outside, join(root, 'link'))
    await expect(listFolder(root, '..')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(listFolder(root, 'link')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(readProjectFile(root, 'link/secret.txt')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(readProjectFile(root, join(outside, 'secret.txt'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(listFolder(root, 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('readProjectFile', () => {
  it('reads text, and says binary instead of sending bytes', async () => {
    expect(await readProjectFile(root, 'src/a.ts')).toEqual({
      text: 'export const a = 1\n',
      binary: false,
      truncated: false,
    })
    expect(await readProjectFile(root, 'image.bin')).toEqual({ text: '', binary: true, truncated: false })
    await expect(readProjectFile(root, 'src')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })
})
