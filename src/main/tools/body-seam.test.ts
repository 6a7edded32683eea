import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeTestWorld } from '../../../test/support/tools'

/**
 * Read, Grep and WebFetch keep their definitions (name, description, schema, traits, validate) in
 * `<tool>.ts` and their bodies in `<tool>-run.ts`, which `execute` imports at the first call. These
 * tests check that nothing imports a body statically (which would put it back on every start-up
 * path) and that the first call, with the body not loaded yet, answers as later calls do.
 */

const main = resolve(import.meta.dirname, '..')
const BODIES = ['read-run', 'grep-run', 'web-fetch-run'].map((name) => join(import.meta.dirname, `${name}.ts`))

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

let world: ReturnType<typeof makeTestWorld>
beforeEach(() => {
  world = makeTestWorld()
  writeFileSync(join(world.project, 'a.txt'), 'one needle\ntwo\n')
})
afterEach(() => world.cleanup())

/** Fresh copies of the modules: no tool body has loaded yet. */
async function fresh() {
  vi.resetModules()
  const { runToolCall } = await import('./run-tool')
  const { readTool } = await import('./read')
  const { grepTool } = await import('./grep')
  const { webFetchTool } = await import('./web-fetch')
  return { runToolCall, readTool, grepTool, webFetchTool }
}

describe('the tool body seam', () => {
  it('nothing imports a tool body statically', () => {
    const offending: string[] = []
    for (const file of sources(main)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/^(import|export)\s(type\s)?[^'"]*?from\s+'([^']+)'/gm)) {
        if (match[2]) continue
        const target = resolve(file, '..', `${match[3] as string}.ts`)
        if (BODIES.includes(target)) offending.push(`${relative(main, file)} → ${relative(main, target)}`)
      }
    }
    expect(offending).toEqual([])
  })

  it('the first Read and Grep, with no body loaded, answer as later ones', async () => {
    const { runToolCall, readTool, grepTool } = await fresh()
    const file = join(world.project, 'a.txt')
    const firstRead = await runToolCall(readTool, { file_path: file }, world.ctx())
    const firstGrep = await runToolCall(grepTool, { pattern: 'needle', output_mode: 'content' }, world.ctx())
    expect(firstRead.isError).toBeFalsy()
    expect(String(firstRead.content)).toContain('one needle')
    expect(String(firstGrep.content)).toContain('a.txt')
    expect(await runToolCall(readTool, { file_path: file }, world.ctx())).toEqual(firstRead)
    expect(await runToolCall(grepTool, { pattern: 'needle', output_mode: 'content' }, world.ctx())).toEqual(firstGrep)
    // A refusal too: a relative path (validate, in the definition) and a missing file (the body).
    expect((await runToolCall(readTool, { file_path: 'a.txt' }, world.ctx())).isError).toBe(true)
    expect((await runToolCall(readTool, { file_path: join(world.project, 'missing.txt') }, world.ctx())).isError).toBe(true)
  })

  it('WebFetch refuses a URL it may not fetch before its body loads, as after', async () => {
    const { runToolCall, webFetchTool } = await fresh()
    const refused = await runToolCall(webFetchTool, { url: 'file:///etc/passwd', prompt: 'x' }, world.ctx())
    expect(refused.isError).toBe(true)
    expect(String(refused.content)).toMatch(/Only http and https/)
    const { parseUrl } = await import('./web-fetch')
    expect(parseUrl('https://user:pw@example.com/')).toMatch(/username or password/)
  })
})
