import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { textReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { mountSmallDisk, smallDiskRefusal, type SmallDisk } from '../../test/support/full-disk'
import { useHeadless } from '../../test/support/headless'
import { skippedUnless } from '../../test/support/sandbox-scratch'

// `sous -p` with $SOUS_HOME on a small real tmpfs that fills while the model answers: the run
// still answers, and stderr says, whatever the output format, which transcript could not be saved
// and that its end was lost when the run closed.
const refusal = smallDiskRefusal()
const disk: SmallDisk | undefined = refusal === undefined ? mountSmallDisk(512 * 1024) : undefined
afterAll(() => disk?.dispose())

const server = useModelServer()
const headless = useHeadless(server, { sousHome: () => join(disk?.root ?? '/nonexistent', 'sous') })

describe('sous -p on a full disk', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('answers, and says on stderr what it could not save', refusal), async () => {
    mkdirSync(join(disk!.root, 'sous'), { recursive: true })
    server.setScenario([
      () => {
        disk!.fill()
        return textReply(`A long answer. ${'.'.repeat(6000)}`)
      },
    ])
    const run = await headless.sous(['--output-format', 'json', 'hello'])
    disk!.free()
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, result: expect.stringContaining('A long answer.') })
    const lines = run.stderr.split('\n').filter((line) => line.includes('transcript'))
    expect(lines).toEqual([
      expect.stringMatching(/^sous: error: This session's transcript could not be saved to .*\.jsonl: ENOSPC/),
      expect.stringMatching(/^sous: error: This session's transcript lost its last \d+ entries: they could not be written to .*\.jsonl before it closed \(ENOSPC/),
    ])
  }, 60_000)
})
