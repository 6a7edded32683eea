import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RecentProjects } from './recent-projects'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-recent-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('RecentProjects', () => {
  it('starts empty, keeps newest first, moves a reopened project to the front', async () => {
    const store = new RecentProjects(home)
    expect(await store.list()).toEqual([])
    await store.add('/a/one')
    await store.add('/a/two')
    await store.add('/a/one')
    const list = await store.list()
    expect(list.map((p) => p.path)).toEqual(['/a/one', '/a/two'])
    expect(list[0]?.name).toBe('one')
    // A second instance over the same file sees the same list.
    expect((await new RecentProjects(home).list()).map((p) => p.path)).toEqual(['/a/one', '/a/two'])
  })

  it('caps the list', async () => {
    const store = new RecentProjects(home, { max: 3 })
    for (const name of ['a', 'b', 'c', 'd', 'e']) await store.add(`/p/${name}`)
    expect((await store.list()).map((p) => p.name)).toEqual(['e', 'd', 'c'])
  })

  it('serializes concurrent adds without losing any', async () => {
    const store = new RecentProjects(home)
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => store.add(`/p/${name}`)))
    expect((await store.list()).length).toBe(4)
    // Only the final file remains: temp files were renamed away.
    expect(await readdir(home)).toEqual(['recent-projects.json'])
  })

  it('reports a corrupt file, keeps it aside and treats the list as empty', async () => {
    await writeFile(join(home, 'recent-projects.json'), '{ not json')
    const warnings: string[] = []
    const store = new RecentProjects(home, { onWarning: (m) => warnings.push(m) })
    expect(await store.list()).toEqual([])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/corrupt/)
    expect(await readFile(join(home, 'recent-projects.json.corrupt'), 'utf8')).toBe('{ not json')
    await store.add('/p/x')
    expect((await store.list()).map((p) => p.path)).toEqual(['/p/x'])
  })

  it('treats a well-formed file of the wrong shape as corrupt', async () => {
    await writeFile(join(home, 'recent-projects.json'), JSON.stringify({ version: 1, projects: [{ path: 3 }] }))
    const warnings: string[] = []
    expect(await new RecentProjects(home, { onWarning: (m) => warnings.push(m) }).list()).toEqual([])
    expect(warnings[0]).toMatch(/unexpected shape/)
  })
})
