import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KEPT_NOTES_FILE, MemoryFolder } from './folder'

let dir: string
let folder: MemoryFolder
const pnpm = {
  name: 'Use pnpm',
  description: 'The user wants pnpm, not npm',
  type: 'feedback',
  body: 'Use pnpm.\n**Why:** the lockfile is pnpm’s.\n**How to apply:** pnpm test, pnpm build.',
}

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'sous-memory-')), 'memory')
  folder = new MemoryFolder(dir)
})
afterEach(async () => {
  await rm(join(dir, '..'), { recursive: true, force: true })
})

describe('MemoryFolder', () => {
  it('is empty when the folder does not exist, and creates it private on the first write', async () => {
    expect(await folder.list()).toEqual([])
    expect(await folder.syncIndex()).toBe(false)
    const { record, previous } = await folder.write('feedback_use_pnpm.md', pnpm, null)
    expect(previous).toBeUndefined()
    expect(record.problems).toEqual([])
    expect((await import('node:fs')).statSync(dir).mode & 0o777).toBe(0o700)
    expect(await readFile(join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Use pnpm](feedback_use_pnpm.md) — The user wants pnpm, not npm\n')
  })

  it('lists files written by hand with their problems, never dropping or crashing on them', async () => {
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'debugging.md'), '# Debugging\n\nUse --inspect.')
    await writeFile(join(dir, 'broken.md'), '---\nname: [x\n---\nbody')
    await writeFile(join(dir, 'notes.txt'), 'not markdown')
    await folder.write('feedback_use_pnpm.md', pnpm, null)
    const records = await folder.list()
    expect(records.map((record) => [record.file, record.problems.length > 0])).toEqual([
      ['broken.md', true],
      ['debugging.md', true],
      ['feedback_use_pnpm.md', false],
    ])
    const index = await readFile(join(dir, 'MEMORY.md'), 'utf8')
    expect(index).toContain('- [debugging.md](debugging.md) — (not a valid memory: The file has no frontmatter')
    expect(index).toContain('- [broken.md](broken.md) — (not a valid memory: The frontmatter is not valid YAML')
  })

  it('refuses a write over a file changed on disk since it was read (CONFLICT), and a second create', async () => {
    const { record } = await folder.write('feedback_use_pnpm.md', pnpm, null)
    await writeFile(join(dir, 'feedback_use_pnpm.md'), (await readFile(record.path, 'utf8')).replace('Use pnpm.', 'Use pnpm, always.'))
    await expect(folder.write('feedback_use_pnpm.md', { ...pnpm, body: `${pnpm.body}\nmore` }, record.version)).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(folder.write('feedback_use_pnpm.md', pnpm, null)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await readFile(record.path, 'utf8')).toContain('Use pnpm, always.')
    const fresh = await folder.read('feedback_use_pnpm.md')
    const { previous } = await folder.write('feedback_use_pnpm.md', { ...pnpm, body: `${pnpm.body}\nmore` }, fresh!.version)
    expect(previous).toContain('Use pnpm, always.')
  })

  it('refuses invalid fields, a duplicate name, bad file names and symbolic links', async () => {
    await folder.write('feedback_use_pnpm.md', pnpm, null)
    await expect(folder.write('user_x.md', { ...pnpm, type: 'opinion' }, null)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(folder.write('feedback_other.md', { ...pnpm, name: 'use PNPM' }, null)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('already named') })
    for (const file of ['../escape.md', 'MEMORY.md', 'a/b.md', '.hidden.md', 'x.txt']) {
      await expect(folder.write(file, pnpm, null)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    }
    const outside = join(dir, '..', 'outside.md')
    await writeFile(outside, 'secret')
    await symlink(outside, join(dir, 'linked.md'))
    await expect(folder.write('linked.md', { ...pnpm, name: 'Linked' }, null)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(await readFile(outside, 'utf8')).toBe('secret')
    const linked = (await folder.list()).find((record) => record.file === 'linked.md')
    expect(linked?.problems[0]?.message).toContain('symbolic link')
    expect(linked?.fields.body).toBe('')
  })

  it('renames without overwriting, deletes with a version, and restores exact text', async () => {
    const { record } = await folder.write('feedback_use_pnpm.md', pnpm, null)
    await folder.write('user_role.md', { name: 'Role', description: 'Backend engineer', type: 'user', body: 'Go and Postgres.' }, null)
    await expect(folder.rename('feedback_use_pnpm.md', 'user_role.md', pnpm, record.version)).rejects.toMatchObject({ code: 'CONFLICT' })
    const renamed = await folder.rename('feedback_use_pnpm.md', 'feedback_pnpm_only.md', { ...pnpm, name: 'pnpm only' }, record.version)
    expect((await folder.list()).map((entry) => entry.file)).toEqual(['feedback_pnpm_only.md', 'user_role.md'])
    expect(await readFile(join(dir, 'MEMORY.md'), 'utf8')).toContain('[pnpm only](feedback_pnpm_only.md)')
    const text = await folder.remove('feedback_pnpm_only.md', renamed.record.version)
    expect(await folder.read('feedback_pnpm_only.md')).toBeUndefined()
    await folder.restore('feedback_pnpm_only.md', text, null)
    expect(await readFile(join(dir, 'feedback_pnpm_only.md'), 'utf8')).toBe(text)
    await expect(folder.remove('user_role.md', 'stale')).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('flags a second memory with the same name without dropping it', async () => {
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'a.md'), '---\nname: Same\ndescription: one\ntype: user\n---\nA')
    await writeFile(join(dir, 'b.md'), '---\nname: same\ndescription: two\ntype: user\n---\nB')
    const [a, b] = await folder.list()
    expect(a?.duplicateOf).toBeUndefined()
    expect(b?.duplicateOf).toBe('a.md')
  })

  it('keeps lines another tool wrote into MEMORY.md before regenerating it', async () => {
    await folder.write('feedback_use_pnpm.md', pnpm, null)
    await writeFile(join(dir, 'MEMORY.md'), '- [Use pnpm](feedback_use_pnpm.md) — hand edit\n- The API tests need a local Redis\n')
    expect(await folder.syncIndex()).toBe(true)
    const kept = await folder.read(KEPT_NOTES_FILE)
    expect(kept?.problems).toEqual([])
    expect(kept?.fields.body).toContain('- The API tests need a local Redis')
    const index = await readFile(join(dir, 'MEMORY.md'), 'utf8')
    expect(index).toContain('[Notes kept from MEMORY.md]')
    expect(index).toContain('— The user wants pnpm, not npm')
    expect(await folder.syncIndex()).toBe(false)
  })
})
