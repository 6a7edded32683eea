import { describe, expect, it } from 'vitest'
import { replayWrites } from './replay-feed'

const one = { command: 'ls', output: 'a\nb', exitCode: 0 }
const two = { command: 'false', output: '', exitCode: 1 }

describe('the Agent terminal in a replay', () => {
  it('starts with a banner, writes only the new commands going forward, and everything again going back', () => {
    const start = replayWrites(null, [], 'Fix it')
    expect(start.reset).toBe(true)
    expect(start.text).toContain('Replay: Fix it')
    const first = replayWrites([], [one], 'Fix it')
    expect(first.reset).toBe(false)
    expect(first.text).toContain('$ ls')
    expect(first.text).toContain('a\r\nb')
    expect(first.text).toContain('[exit 0]')
    const second = replayWrites([one], [one, two], 'Fix it')
    expect(second.text).not.toContain('$ ls')
    expect(second.text).toContain('[exit 1]')
    const back = replayWrites([one, two], [one], 'Fix it')
    expect(back.reset).toBe(true)
    expect(back.text).toContain('$ ls')
    expect(replayWrites([one], null, 'Fix it').text).toContain('Replay ended')
  })
})
