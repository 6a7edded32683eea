import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { readCheckpoints } from '../main/checkpoints/checkpoint-list'

// A disk that is really full: $SOUS_HOME on a 2 MiB tmpfs, so the kernel itself refuses the
// content store's write (ENOSPC), through the real CLI, engine, Bash tool and recorder.
const mountPoint = mkdtempSync(join(tmpdir(), 'sous-full-home-'))
const refused = mountTmpfs(mountPoint)
afterAll(() => {
  if (!refused) execFileSync('umount', [mountPoint])
  rmSync(mountPoint, { recursive: true, force: true })
})
if (refused) console.warn(`checkpoints-disk-full.test.ts skipped: a tmpfs could not be mounted here (${refused}); it needs root or CAP_SYS_ADMIN.`)

/** Mounts a 2 MiB tmpfs; why not, when the system refuses. */
function mountTmpfs(at: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', at], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error)
  }
}

const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true, sousHome: () => join(mountPoint, 'sous') })

describe.skipIf(refused !== undefined)('a snapshot on a full disk', () => {
  it('is said once on the call’s card, the call still runs, and its checkpoint is marked missing', async () => {
    mkdirSync(join(mountPoint, 'sous'), { recursive: true })
    await writeFile(join(headless.project, 'a.txt'), 'alpha\n')
    server.setScenario([
      // A first call, so the prompt's checkpoint and this call's are on disk before it fills.
      toolUseReply('Bash', { command: 'echo one > one.txt' }, { id: 'toolu_first' }),
      async () => {
        // Someone leaves a file the next checkpoint must store, and the disk fills up.
        await writeFile(join(headless.project, 'big.bin'), randomBytes(1024 * 1024))
        const { bavail, bsize } = statfsSync(mountPoint)
        await writeFile(join(mountPoint, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)))
        return toolUseReply('Bash', { command: 'echo ran > ran.txt' }, { id: 'toolu_full' })
      },
      // The user frees the space: the next checkpoint is saved, and the session says so.
      async () => {
        await rm(join(mountPoint, 'filler'))
        return toolUseReply('Bash', { command: 'echo again > again.txt' }, { id: 'toolu_freed' })
      },
      textReply('Done.'),
    ])
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', '--output-format', 'sous-events', 'Write two files'])
    expect(run.code, run.stderr).toBe(0)
    expect(server.failures).toEqual([])
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; toolUseId?: string; text?: string; sessionId?: string; content?: string; message?: string; level?: string })
    // Said once, on the card of the call whose checkpoint failed (its blob is written while it runs), with the kernel's reason.
    const said = events.filter((event) => event.type === 'tool_progress' && event.text?.startsWith('Checkpoint not recorded'))
    expect(said).toEqual([expect.objectContaining({ toolUseId: 'toolu_full', text: expect.stringMatching(/ENOSPC|no space left/i) })])
    // The user chose to run it: it ran.
    expect(await readFile(join(headless.project, 'ran.txt'), 'utf8')).toBe('ran\n')
    expect(events.find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_full')).toMatchObject({ isError: false })
    const sessionId = events.find((event) => event.sessionId)!.sessionId!
    const checkpoints = await readCheckpoints(join(mountPoint, 'sous'), sessionId)
    const states = checkpoints.map((checkpoint) => [checkpoint.trigger.kind === 'tool' ? checkpoint.trigger.toolUseId : 'prompt', checkpoint.before.kind])
    expect(states).toEqual([['prompt', 'content'], ['toolu_first', 'content'], ['toolu_full', 'missing'], ['toolu_freed', 'content']])
    // The session is told once that checkpoints are not saved (the folder and the kernel's reason), and once that they are again; on stderr too.
    const folder = join(mountPoint, 'sous', 'checkpoints')
    const notices = events.filter((event) => event.type === 'notice' && event.message?.includes('Checkpoints are'))
    expect(notices).toEqual([
      expect.objectContaining({ level: 'warning', message: expect.stringMatching(new RegExp(`^Checkpoints are not being saved to ${folder}: .*(ENOSPC|no space left)`, 'i')) }),
      expect.objectContaining({ level: 'info', message: `Checkpoints are saved again to ${folder}.` }),
    ])
    expect(run.stderr.match(/Checkpoints are not being saved/g)).toHaveLength(1)
    expect(run.stderr).toContain(`sous: note: Checkpoints are saved again to ${folder}.`)
    expect(await readFile(join(headless.project, 'again.txt'), 'utf8')).toBe('again\n')
    expect(checkpoints[2]!.before).toMatchObject({ reason: expect.stringMatching(/ENOSPC|no space left/i) })
  }, 60_000)
})
