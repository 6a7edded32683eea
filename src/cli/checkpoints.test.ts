import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { runCli, type CliRun } from '../../test/support/cli-run'
import { useHeadless } from '../../test/support/headless'
import { runCheckpoints, runRewind } from './checkpoints'

// The "done when": real git, real Bash through the real engine against the scripted model.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })
const BYPASS = ['--permission-mode', 'bypassPermissions', '--output-format', 'json']

function git(args: string[], cwd = headless.project): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
}

/** Every file under the project but `.git` and ignored `*.log`, with its content. */
async function tree(root: string, folder = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name
    if (entry.name === '.git' || entry.name.endsWith('.log')) continue
    if (entry.isDirectory()) Object.assign(out, await tree(root, path))
    else out[path] = await readFile(join(root, path), 'utf8')
  }
  return out
}

/** The user's git state, byte for byte: index, HEAD, branch refs, the stash and the reflogs. */
async function userGitState(): Promise<Record<string, string>> {
  const dir = join(headless.project, '.git')
  const read = (path: string) => readFile(join(dir, path)).then((bytes) => bytes.toString('base64'), () => '(none)')
  return {
    index: await read('index'),
    HEAD: await read('HEAD'),
    branches: git(['for-each-ref', 'refs/heads', 'refs/tags', 'refs/stash']),
    stash: git(['stash', 'list']),
    stashLog: await read('logs/refs/stash'),
    headLog: await read('logs/HEAD'),
    mainLog: await read('logs/refs/heads/main'),
    packed: await read('packed-refs'),
  }
}

function cli(run: typeof runCheckpoints, argv: string[]): Promise<CliRun> {
  return runCli(run, argv, { SOUS_HOME: headless.home, HOME: headless.home, PATH: process.env['PATH'] })
}

/** Turn 1 edits a.txt; turn 2 runs sed -i, rm, mv, a heredoc and an untracked file while "the user" edits ext.txt. */
async function twoTurns(): Promise<{ sessionId: string; afterTurn1: Record<string, string> }> {
  const project = headless.project
  server.setScenario([
    toolUseReply('Read', { file_path: join(project, 'a.txt') }),
    toolUseReply('Edit', { file_path: join(project, 'a.txt'), old_string: 'alpha', new_string: 'ALPHA' }),
    textReply('Edited.'),
  ])
  const first = await headless.sous([...BYPASS, 'Edit a.txt'])
  expect(first.code, first.stderr).toBe(0)
  const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id
  const afterTurn1 = await tree(project)
  expect(afterTurn1['a.txt']).toBe('ALPHA\n')
  server.setScenario([
    toolUseReply('Bash', { command: "sed -i 's/one/uno/' b.txt" }),
    // The user changes a file on disk while the agent works.
    async () => {
      await writeFile(join(project, 'ext.txt'), 'changed by the user\n')
      return toolUseReply('Bash', { command: 'rm c.txt && mv d.txt moved/d.txt 2>/dev/null || (mkdir -p moved && mv d.txt moved/d.txt)' })
    },
    toolUseReply('Bash', { command: "cat > heredoc.txt <<'EOF'\nwritten by a heredoc\nEOF" }),
    toolUseReply('Bash', { command: 'echo fresh > untracked.txt && echo noise > build.log' }),
    textReply('Done.'),
  ])
  const second = await headless.sous([...BYPASS, '--resume', sessionId, 'Shuffle files'])
  expect(second.code, second.stderr).toBe(0)
  expect(server.failures).toEqual([])
  const now = await tree(project)
  expect(now['b.txt']).toBe('uno\n')
  expect(now['moved/d.txt']).toBe('delta\n')
  expect(now['heredoc.txt']).toBe('written by a heredoc\n')
  expect(now['c.txt']).toBeUndefined()
  return { sessionId, afterTurn1 }
}

async function seed(): Promise<void> {
  const files = { 'a.txt': 'alpha\n', 'b.txt': 'one\n', 'c.txt': 'gamma\n', 'd.txt': 'delta\n', 'ext.txt': 'external\n', '.gitignore': '*.log\n' }
  for (const [name, text] of Object.entries(files)) await writeFile(join(headless.project, name), text)
}

/** The checkpoint at turn 2's prompt, from `sous checkpoints --json`. */
async function promptOfTurn2(sessionId: string): Promise<string> {
  const listed = await cli(runCheckpoints, [sessionId, '--json'])
  expect(listed.code, listed.stderr).toBe(0)
  const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; turn: number; kind: string; followedBy: string; changed: string[] })
  // Turn 1: its prompt and the Edit; turn 2: its prompt and four Bash calls; one each, none missing.
  expect(rows.map((row) => `${row.turn}:${row.kind}`)).toEqual(['1:prompt', '1:tool', '2:prompt', '2:tool', '2:tool', '2:tool', '2:tool'])
  expect(rows[1]!.followedBy).toContain('a.txt')
  expect(rows[2]!.changed).toEqual(['a.txt'])
  return rows[2]!.id
}

describe('checkpoints of the whole workspace', () => {
  it('restores turn 1 after Bash changes in a git repository, keeping a file the user changed and the user’s git state', async () => {
    await seed()
    git(['init', '-q', '-b', 'main'])
    git(['add', '-A'])
    git(['commit', '-qm', 'start'])
    await writeFile(join(headless.project, 'b.txt'), 'stashed\n')
    git(['stash', '-q'])
    await writeFile(join(headless.project, 'staged.txt'), 'staged only\n')
    git(['add', 'staged.txt'])
    const gitBefore = await userGitState()
    const { sessionId, afterTurn1 } = await twoTurns()
    expect(await userGitState()).toEqual(gitBefore)
    const checkpoint = await promptOfTurn2(sessionId)
    const rewound = await cli(runRewind, [sessionId, '--to', checkpoint, '--code', '--json', '--cwd', headless.project])
    expect(rewound.code, rewound.stderr).toBe(3)
    const outcome = JSON.parse(rewound.stdout) as { kept: string[]; restored: string[] }
    expect(outcome.kept).toEqual(['ext.txt'])
    expect(await tree(headless.project)).toEqual({ ...afterTurn1, 'ext.txt': 'changed by the user\n' })
    // Ignored files are not captured, so restore leaves them alone.
    expect(existsSync(join(headless.project, 'build.log'))).toBe(true)
    expect(await userGitState()).toEqual(gitBefore)
    expect(git(['for-each-ref', '--format=%(refname)', 'refs/sous'])).toContain(`refs/sous/checkpoints/${sessionId}`)
  }, 60_000)

  it('does the same in a folder that is not a git repository', async () => {
    await seed()
    const { sessionId, afterTurn1 } = await twoTurns()
    const checkpoint = await promptOfTurn2(sessionId)
    const rewound = await cli(runRewind, [sessionId, '--to', checkpoint, '--code', '--json', '--cwd', headless.project])
    expect(rewound.code, rewound.stderr).toBe(3)
    expect((JSON.parse(rewound.stdout) as { kept: string[] }).kept).toEqual(['ext.txt'])
    expect(await tree(headless.project)).toEqual({ ...afterTurn1, 'ext.txt': 'changed by the user\n' })
    expect(existsSync(join(headless.project, '.git'))).toBe(false)
  }, 60_000)
})
