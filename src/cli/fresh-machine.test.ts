import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { OPTIONAL_SYSTEM_TOOLS, pathWithout } from '../../test/support/path-without'
import type { Message, ToolResultBlock } from '../main/services/model/types'
import { runPrint } from './print'

// `sous -p` as on a fresh machine: the PATH lacks ripgrep, bubblewrap and socat (each test says
// which), and everything the user asked for still works — search with the bundled ripgrep, and
// Bash either in the sandbox or, in bypassPermissions, unconfined with one warning on stderr.
const server = useModelServer()

let home: string
let project: string
const originalPath = process.env.PATH
const shadows: Array<{ dispose(): void }> = []

/** Runs the rest of the test with a PATH that lacks `missing`. */
function withoutOnPath(missing: readonly string[]): void {
  const shadow = pathWithout(missing, originalPath)
  shadows.push(shadow)
  process.env.PATH = shadow.path
}

beforeAll(() => {
  expect(originalPath).toBeTruthy()
})
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-home-'))
  project = await mkdtemp(join(tmpdir(), 'sous-project-'))
})
afterEach(async () => {
  process.env.PATH = originalPath
  for (const shadow of shadows.splice(0)) shadow.dispose()
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})
afterAll(() => {
  process.env.PATH = originalPath
})

async function sous(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const env = { SOUS_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', HOME: home }
  const code = await runPrint(['-p', '--cwd', project, ...args], env, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

/** The text of the tool_result for `id` in the recorded requests. */
function resultText(id: string): string {
  for (const request of server.requests) {
    for (const message of request.body['messages'] as Message[]) {
      if (typeof message.content === 'string') continue
      for (const block of message.content) {
        if (block.type === 'tool_result' && (block as ToolResultBlock).tool_use_id === id) {
          const content = (block as ToolResultBlock).content
          return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('')
        }
      }
    }
  }
  throw new Error(`no tool_result for ${id}`)
}

const sandboxProbe = 'echo "sandbox=${SANDBOX_RUNTIME:-no}" > where.txt'
const warning = /sous: warning: the OS sandbox is unavailable/g

describe('sous -p on a machine without rg, bwrap and socat', () => {
  it('searches with the bundled ripgrep, and bypassPermissions runs commands unconfined with one warning', async () => {
    withoutOnPath(OPTIONAL_SYSTEM_TOOLS)
    await writeFile(join(project, 'notes.txt'), 'the needle is here\n')
    server.setScenario([
      toolUseReply('Grep', { pattern: 'needle' }, { id: 'toolu_grep' }),
      toolUseReply('Bash', { command: sandboxProbe }, { id: 'toolu_first' }),
      toolUseReply('Bash', { command: 'touch second.txt' }, { id: 'toolu_second' }),
      textReply('Done.'),
    ])
    const { code, stderr } = await sous(['--permission-mode', 'bypassPermissions', 'Search, then write'])
    expect(code).toBe(0)
    expect(resultText('toolu_grep')).toContain('notes.txt')
    expect(await readFile(join(project, 'where.txt'), 'utf8')).toBe('sandbox=no\n')
    expect(resultText('toolu_second')).not.toMatch(/needs approval/)
    expect(stderr.match(warning)).toHaveLength(1)
    expect(stderr).toMatch(/bwrap|bubblewrap/)
    expect(stderr).toContain('unconfined')
  })

  it('keeps the fail-closed ask in the other modes (headless: a denial), and says why', async () => {
    withoutOnPath(OPTIONAL_SYSTEM_TOOLS)
    server.setScenario([toolUseReply('Bash', { command: 'touch made.txt' }, { id: 'toolu_touch' }), textReply('Could not.')])
    const { code, stderr } = await sous(['--permission-mode', 'acceptEdits', 'Write'])
    expect(code).toBe(0)
    expect(resultText('toolu_touch')).toMatch(/outside the sandbox/)
    expect(stderr.match(warning)).toHaveLength(1)
    expect(stderr).toContain('need approval')
  })
})

describe.runIf(process.platform === 'linux')('sous -p on a machine with bwrap and socat but no rg', () => {
  it('runs Bash inside the sandbox (the library scans with the bundled ripgrep) and warns about nothing', async () => {
    withoutOnPath(['rg'])
    server.setScenario([toolUseReply('Bash', { command: sandboxProbe }, { id: 'toolu_probe' }), textReply('Done.')])
    const { code, stderr } = await sous(['--permission-mode', 'bypassPermissions', 'Write'])
    expect(code).toBe(0)
    const where = await readFile(join(project, 'where.txt'), 'utf8')
    // A host without user namespaces cannot run the sandbox at all; then the warning says why.
    if (where === 'sandbox=no\n') {
      expect(stderr).toMatch(warning)
      expect(stderr).not.toMatch(/ripgrep|\brg\b/)
      return
    }
    expect(where).toBe('sandbox=1\n')
    expect(stderr).not.toMatch(warning)
    expect(resultText('toolu_probe')).not.toContain('sandbox_violations')
  })
})
