import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { compileCacheNotice, enableCompileCache } from '../main/base/compile-cache'

// The start-up fast path (the compile cache, the light SDK client, the lazily loaded schemas)
// must not change a decision: the built CLI, run with the cache off, cold, warm and damaged,
// allows and denies the same calls under the same settings. On Node 20 the cache is off by
// construction (no API for ES modules), and the runs still prove the built path decides as the
// rules say; on Node ≥ 22.1 they prove it with the cache in use.
const CLI_BUILT = join(import.meta.dirname, '..', '..', 'out', 'main', 'cli.js')
const server = useModelServer()

let home: string
let project: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-cache-home-'))
  project = await mkdtemp(join(tmpdir(), 'sous-cache-project-'))
  await mkdir(join(project, '.claude'))
  // A deny rule, an allow rule, and a file a denied command would delete.
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm *)'], allow: ['Bash(echo *)'] } }))
  await writeFile(join(project, 'keep.txt'), 'kept\n')
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

/** One `sous -p` of the built CLI: a denied Bash call, an allowed one, then an answer. */
async function run(env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; denials: string[]; results: string[]; stderr: string }> {
  server.setScenario([toolUseReply('Bash', { command: 'rm keep.txt' }, { id: 'toolu_rm' }), toolUseReply('Bash', { command: 'echo allowed' }, { id: 'toolu_echo' }), textReply('done')])
  server.requests.length = 0
  const child = spawn(process.execPath, [CLI_BUILT, '-p', 'go', '--output-format', 'json'], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home, SOUS_HOME: join(home, 'sous'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  const result = JSON.parse(stdout) as { permission_denials: Array<{ tool_use_id: string }> }
  // What the model was told about each call, in the order of the requests.
  const results = server.requests.flatMap((request) => {
    const last = (request.body['messages'] as Array<{ content: unknown }>).at(-1)?.content
    const blocks = Array.isArray(last) ? (last as Array<{ type: string; tool_use_id?: string; is_error?: boolean }>) : []
    return blocks.filter((block) => block.type === 'tool_result').map((block) => `${block.tool_use_id}:${block.is_error ? 'error' : 'ok'}`)
  })
  return { code, denials: result.permission_denials.map((denial) => denial.tool_use_id), results, stderr }
}

describe.skipIf(!existsSync(CLI_BUILT))('the built sous -p with and without the compile cache', () => {
  it('denies and allows the same calls with the cache off, cold, warm and damaged, with at most one notice', async () => {
    const marksFile = join(home, 'marks.json')
    const off = await run({ SOUS_COMPILE_CACHE: '0', SOUS_STARTUP_MARKS: marksFile })
    expect(off.code).toBe(0)
    // The marks the start-up bench splits the way to the first request by, each once, in ms since start.
    const marks = JSON.parse(await readFile(marksFile, 'utf8')) as Record<string, number>
    expect(Object.keys(marks).sort()).toEqual(['gate', 'modules', 'prompt', 'sdk', 'settings', 'wire'])
    expect(marks['modules']!).toBeLessThan(marks['wire']!)
    expect(off.denials).toEqual(['toolu_rm'])
    expect(off.results).toEqual(['toolu_rm:error', 'toolu_echo:ok'])
    expect(existsSync(join(project, 'keep.txt'))).toBe(true)

    const cold = await run()
    const warm = await run()
    // Damage every cache entry (when Node made any), as a crash mid-write or a bad disk would.
    const cacheDir = join(home, 'sous', 'cache', 'compile')
    for (const file of existsSync(cacheDir) ? await filesUnder(cacheDir) : []) await writeFile(file, 'not a code cache')
    const damaged = await run()
    for (const each of [cold, warm, damaged]) {
      expect({ code: each.code, denials: each.denials, results: each.results }).toEqual({ code: off.code, denials: off.denials, results: off.results })
      expect(each.stderr).not.toMatch(/compile cache/)
    }
    expect(existsSync(join(project, 'keep.txt'))).toBe(true)

    // The cache folder cannot be made (a file is in its way): one notice, the same decisions.
    await rm(join(home, 'sous', 'cache'), { recursive: true, force: true })
    await writeFile(join(home, 'sous', 'cache'), 'a file where the cache folder would go')
    const blocked = await run()
    expect({ code: blocked.code, denials: blocked.denials, results: blocked.results }).toEqual({ code: off.code, denials: off.denials, results: off.results })
    expect(blocked.stderr.match(/compile cache/g)?.length ?? 0).toBeLessThanOrEqual(1)
  }, 180_000)
})

describe('enableCompileCache', () => {
  it('is off when asked, and says why when this Node has no compile cache', () => {
    expect(enableCompileCache(home, { SOUS_COMPILE_CACHE: '0' })).toEqual({ kind: 'off', why: 'SOUS_COMPILE_CACHE=0' })
    const state = enableCompileCache(home, {}, {})
    expect(state).toEqual({ kind: 'off', why: `Node ${process.versions.node} has no module.enableCompileCache` })
    expect(compileCacheNotice(state)).toBeUndefined()
  })

  it("maps Node's answers: a failure is one notice and never throws", () => {
    const status = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 }
    const answer = (value: { status: number; message?: string }) => () => value
    expect(enableCompileCache(home, {}, { status, enable: answer({ status: 1 }) })).toEqual({ kind: 'enabled', directory: join(home, 'cache', 'compile') })
    expect(enableCompileCache(home, {}, { status, enable: answer({ status: 3 }) }).kind).toBe('off')
    const failed = enableCompileCache(home, {}, { status, enable: answer({ status: 0, message: 'EACCES' }) })
    expect(compileCacheNotice(failed)).toBe('sous: the compile cache is not used (EACCES); starting without it.\n')
    const threw = enableCompileCache(home, {}, {
      status,
      enable: () => {
        throw new Error('boom')
      },
    })
    expect(threw).toEqual({ kind: 'failed', message: 'boom' })
  })
})

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}
