import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { smallDiskEach, smallDiskRefusal } from '../../../test/support/full-disk'
import { skippedUnless } from '../../../test/support/sandbox-scratch'
import { Journal } from './journal'
import type { JournalEntry } from './types'

// A real full disk (a small tmpfs filled to its last page): the kernel writes part of a line, then ENOSPC.
const refusal = smallDiskRefusal()

const disk = smallDiskEach(256 * 1024, refusal)

/** A checkpoint line of about `size` characters (its prompt), big enough to cross the journal's last page. */
const checkpoint = (id: string, size = 10): JournalEntry => ({
  type: 'checkpoint',
  id,
  sessionId: 's1',
  projectPath: '/work/app',
  turn: 1,
  at: new Date(0).toISOString(),
  trigger: { kind: 'prompt', prompt: 'x'.repeat(size) },
  before: { kind: 'missing', reason: 'test' },
  transcriptBytes: 0,
})

describe('a checkpoint journal on a full disk', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('refuses a line whole (never a torn one), and the next line after space is freed is read back', refusal), async () => {
    const journal = Journal.of(join(disk.root, 'home'), 's1')
    journal.append(checkpoint('ck_one'))
    const before = readFileSync(journal.path, 'utf8')
    disk.fill()
    expect(() => journal.append(checkpoint('ck_two', 6000))).toThrow(/ENOSPC/)
    expect(readFileSync(journal.path, 'utf8')).toBe(before)
    disk.free()
    journal.append(checkpoint('ck_three'))
    expect((await journal.read()).map((entry) => entry.id)).toEqual(['ck_one', 'ck_three'])
  })
})
