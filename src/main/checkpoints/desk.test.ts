import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadTranscript, transcriptPath, TranscriptWriter } from '../store/transcript'
import { CheckpointDesk } from './desk'
import { CheckpointRecorder } from './recorder'

// The app's side of checkpoints on a real git repository: the list names each prompt's turn,
// the preview carries both sides of each file and marks the user's change a conflict, a restore
// writes the file with one hunk kept and rewinds the conversation's cards, a fork copies them.
let root: string
let project: string
let home: string
let sessionId: string
let writer: TranscriptWriter
let recorder: CheckpointRecorder

const git = (args: string[]) => execFileSync('git', args, { cwd: project, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n'

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-desk-'))
  project = join(root, 'project')
  home = join(root, 'home')
  await mkdir(project)
  await writeFile(join(project, 'a.txt'), A)
  await writeFile(join(project, 'ext.txt'), 'external\n')
  git(['init', '-q', '-b', 'main'])
  git(['add', '-A'])
  git(['commit', '-qm', 'start'])
  sessionId = randomUUID()
  const path = transcriptPath(home, project, sessionId)
  writer = TranscriptWriter.create(path, { sessionId, projectPath: project })
  recorder = new CheckpointRecorder({ home, sessionId, projectPath: project, env: process.env, transcriptPath: path, enabled: () => true, notice: () => undefined })
})
afterEach(() => rm(root, { recursive: true, force: true }))

/** One turn as a session stores it: the prompt's checkpoint, the prompt, its card, and a Bash call that runs `change`. */
async function turn(number: number, prompt: string, change: () => Promise<void>): Promise<void> {
  recorder.prompt(prompt)
  await recorder.landed()
  writer.appendMessage({ role: 'user', content: [{ type: 'text', text: prompt }] })
  writer.appendEvent({ type: 'turn_start', sessionId, agentId: 'main', turnId: `${sessionId}:${number}`, prompt })
  await recorder.before({ toolUseId: `t${number}`, name: 'Bash', agentId: 'main', summary: 'Bash: change' })
  await change()
  await recorder.after(`t${number}`)
  writer.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `done ${number}` }] })
  writer.appendEvent({ type: 'turn_end', sessionId, agentId: 'main', turnId: `${sessionId}:${number}`, reason: 'completed' } as never)
  await recorder.settled()
}

describe('the checkpoint desk', () => {
  it("names the files a Bash call changed, from the checkpoints before and after it", async () => {
    const desk = new CheckpointDesk({ home, env: process.env })
    await turn(1, 'first', async () => {
      await writeFile(join(project, 'a.txt'), 'rewritten\n')
      await rm(join(project, 'ext.txt'))
      await writeFile(join(project, 'made.txt'), 'new\n')
    })
    await turn(2, 'second', async () => undefined)
    expect(await desk.callFiles(sessionId, 't1')).toEqual({ state: 'recorded', files: ['a.txt', 'ext.txt', 'made.txt'], more: 0 })
    expect(await desk.callFiles(sessionId, 't2')).toEqual({ state: 'recorded', files: [], more: 0 })
    // A call with no checkpoint around it (a read-only one), and one whose tree is not recorded yet.
    expect(await desk.callFiles(sessionId, 'toolu_read')).toEqual({ state: 'none', files: [], more: 0 })
    await recorder.before({ toolUseId: 't3', name: 'Bash', agentId: 'main', summary: 'Bash: x' })
    expect((await desk.callFiles(sessionId, 't3')).state).toBe('pending')
  })

  it('lists, previews with both sides, restores with a hunk kept and a conflict kept, and rewinds the cards', async () => {
    await turn(1, 'first', async () => writeFile(join(project, 'a.txt'), A.replace('two', 'TWO').replace('six', 'SIX')))
    await turn(2, 'second', async () => writeFile(join(project, 'b.txt'), 'new\n'))
    // The user changes a file after the agent's last call.
    await writeFile(join(project, 'ext.txt'), 'changed by the user\n')
    const desk = new CheckpointDesk({ home, env: process.env })
    const { checkpoints } = await desk.list(sessionId)
    expect(checkpoints.map((row) => [row.kind, row.turnId])).toEqual([['prompt', `${sessionId}:1`], ['tool', undefined], ['prompt', `${sessionId}:2`], ['tool', undefined]])
    const first = checkpoints[0]!.id

    const preview = await desk.preview(sessionId, first)
    expect(preview.files.map((file) => [file.path, file.change, file.conflict])).toEqual([['a.txt', 'restore', false], ['b.txt', 'delete', false], ['ext.txt', 'restore', true]])
    expect(preview.files[0]).toMatchObject({ current: A.replace('two', 'TWO').replace('six', 'SIX'), target: A })

    // Restore the first hunk of a.txt only (the right side as the preview then reads), delete b.txt, keep ext.txt.
    const partial = A.replace('six', 'SIX')
    const outcome = await desk.restore({ sessionId, checkpointId: first, mode: 'both', paths: ['a.txt', 'b.txt', 'ext.txt'], contents: { 'a.txt': partial } })
    expect(outcome).toMatchObject({ restored: ['b.txt', 'a.txt'], kept: ['ext.txt'], messages: 0 })
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe(partial)
    expect(await readFile(join(project, 'ext.txt'), 'utf8')).toBe('changed by the user\n')
    // The conversation and its cards are as they were before the first prompt.
    const stored = await loadTranscript(transcriptPath(home, project, sessionId))
    expect(stored?.messages).toEqual([])
    expect(stored?.events).toEqual([])
  }, 60_000)

  it('forks a new session whose conversation and cards end at the checkpoint, and refuses an unknown checkpoint', async () => {
    await turn(1, 'first', async () => writeFile(join(project, 'a.txt'), 'changed\n'))
    await turn(2, 'second', async () => writeFile(join(project, 'a.txt'), 'changed again\n'))
    const desk = new CheckpointDesk({ home, env: process.env })
    const { checkpoints } = await desk.list(sessionId)
    const second = checkpoints.find((row) => row.turnId === `${sessionId}:2`)!
    const forked = await desk.fork(sessionId, second.id)
    const copy = await loadTranscript(transcriptPath(home, project, forked.sessionId))
    expect(copy?.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(copy?.events.map((event) => [event.type, event.sessionId])).toEqual([['turn_start', forked.sessionId], ['turn_end', forked.sessionId]])
    // The original is untouched.
    expect((await loadTranscript(transcriptPath(home, project, sessionId)))?.messages).toHaveLength(4)
    await expect(desk.preview(sessionId, 'ck_0000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // A turn running in the session: nothing is written.
    const busy = new CheckpointDesk({ home, env: process.env, sessions: { isBusy: () => true } })
    await expect(busy.restore({ sessionId, checkpointId: second.id, mode: 'code' })).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('changed again\n')
  }, 60_000)
})
