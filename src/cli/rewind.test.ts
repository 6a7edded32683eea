import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { runCli, type CliRun } from '../../test/support/cli-run'
import { useHeadless } from '../../test/support/headless'
import { loadTranscript, transcriptPath } from '../main/store/transcript'
import { runCheckpoints, runRewind } from './checkpoints'

// The headless commands' bad input and refusals, and a fork from a checkpoint.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
const git = (args: string[]) => execFileSync('git', args, { cwd: headless.project, encoding: 'utf8', env: gitEnv })

function cli(run: typeof runCheckpoints, argv: string[]): Promise<CliRun> {
  return runCli(run, argv, { SOUS_HOME: headless.home, HOME: headless.home, PATH: process.env['PATH'] })
}

async function oneTurn(): Promise<{ sessionId: string; checkpoints: Array<{ id: string; kind: string }> }> {
  await writeFile(join(headless.project, 'a.txt'), 'alpha\n')
  git(['init', '-q', '-b', 'main'])
  git(['add', '-A'])
  git(['commit', '-qm', 'start'])
  server.setScenario([
    toolUseReply('Read', { file_path: join(headless.project, 'a.txt') }),
    toolUseReply('Edit', { file_path: join(headless.project, 'a.txt'), old_string: 'alpha', new_string: 'ALPHA' }),
    textReply('Edited.'),
  ])
  const run = await headless.sous(['--permission-mode', 'bypassPermissions', '--output-format', 'json', 'Edit a.txt'])
  expect(run.code, run.stderr).toBe(0)
  const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id
  const listed = await cli(runCheckpoints, [sessionId, '--json'])
  return { sessionId, checkpoints: listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; kind: string }) }
}

describe('sous rewind and --fork-session --at', () => {
  it('refuses bad input with exit 2 and a moved HEAD with exit 1, writing nothing', async () => {
    const { sessionId, checkpoints } = await oneTurn()
    expect(checkpoints.map((checkpoint) => checkpoint.kind)).toEqual(['prompt', 'tool'])
    const cwd = ['--cwd', headless.project]
    expect((await cli(runRewind, [sessionId, '--to', 'ck_nope', ...cwd])).stderr).toContain('has no checkpoint ck_nope')
    expect((await cli(runRewind, [sessionId, '--to', 'ck_nope', ...cwd])).code).toBe(2)
    expect((await cli(runRewind, ['no-such-session', '--to', checkpoints[0]!.id, ...cwd])).code).toBe(2)
    expect((await cli(runRewind, [sessionId, '--to', checkpoints[0]!.id, '--code', '--both', ...cwd])).code).toBe(2)
    expect((await cli(runRewind, [sessionId, '--to', checkpoints[0]!.id, '--cwd', headless.home])).stderr).toContain('belongs to')
    expect((await cli(runCheckpoints, ['no-such-session'])).code).toBe(2)
    // The user commits: restoring files over another commit is refused.
    git(['commit', '-qam', 'the user commits'])
    const moved = await cli(runRewind, [sessionId, '--to', checkpoints[0]!.id, '--code', ...cwd])
    expect(moved.code).toBe(1)
    expect(moved.stderr).toContain('HEAD moved')
    expect(await readFile(join(headless.project, 'a.txt'), 'utf8')).toBe('ALPHA\n')
  }, 60_000)

  it('restores code, then forks a new session whose history ends at the checkpoint', async () => {
    const { sessionId, checkpoints } = await oneTurn()
    const done = await cli(runRewind, [sessionId, '--to', checkpoints[1]!.id, '--code', '--cwd', headless.project])
    expect(done.code, done.stderr).toBe(0)
    expect(done.stdout).toContain('a.txt')
    expect(await readFile(join(headless.project, 'a.txt'), 'utf8')).toBe('alpha\n')
    server.setScenario([textReply('Starting over.')])
    const fork = await headless.sous(['--output-format', 'json', '--fork-session', '--resume', sessionId, '--at', checkpoints[0]!.id, 'Try again'])
    expect(fork.code, fork.stderr).toBe(0)
    expect((JSON.parse(fork.stdout) as { session_id: string }).session_id).not.toBe(sessionId)
    // Forked at the first prompt: the new session's history is just its own prompt.
    const sent = server.requests.at(-1)!.body['messages'] as Array<{ role: string }>
    expect(sent).toHaveLength(1)
    expect(JSON.stringify(sent)).toContain('Try again')
    // The original is as it was; rewinding its conversation to the tool call keeps the prompt and the Read.
    const conversation = await cli(runRewind, [sessionId, '--to', checkpoints[1]!.id, '--conversation', '--json', '--cwd', headless.project])
    expect(conversation.code, conversation.stderr).toBe(0)
    const stored = await loadTranscript(transcriptPath(headless.home, headless.project, sessionId))
    expect(stored?.messages.length).toBe((JSON.parse(conversation.stdout) as { messages: number }).messages)
    expect(JSON.stringify(stored?.messages)).toContain('Edit a.txt')
    expect(JSON.stringify(stored?.messages)).not.toContain('Edited.')
    const bad = await headless.sous(['--fork-session', '--resume', sessionId, '--at', 'ck_nope', 'x'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('has no checkpoint')
  }, 60_000)
})
