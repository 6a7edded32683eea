import { describe, expect, it } from 'vitest'
import type { Message } from '../services/model/types'
import { ReminderQueue, withReminders } from './reminders'

describe('ReminderQueue', () => {
  it('drains oldest first, once, and drops what is no longer relevant', () => {
    const queue = new ReminderQueue()
    let stale = false
    queue.push('first', { source: 'a' })
    queue.push('stale later', { source: 'b', stillRelevant: () => !stale })
    queue.push('   ', { source: 'c' })
    queue.push('third', { source: 'c', stillRelevant: () => { throw new Error('bug') } })
    expect(queue.size).toBe(3)
    stale = true
    expect(queue.drain().map((r) => r.text)).toEqual(['first', 'third'])
    expect(queue.drain()).toEqual([])
  })
})

describe('withReminders', () => {
  it('appends system-reminder blocks after the message content, tool results first, without mutating', () => {
    const message: Extract<Message, { role: 'user' }> = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }
    const copy = structuredClone(message)
    const out = withReminders(message, [{ text: 'news', source: 'x' }])
    expect(message).toEqual(copy)
    expect(out.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
      { type: 'text', text: '<system-reminder>\nnews\n</system-reminder>' },
    ])
    expect(withReminders(message, [])).toBe(message)
    expect(withReminders({ role: 'user', content: 'hi' }, [{ text: 'n', source: 'x' }]).content).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'text', text: '<system-reminder>\nn\n</system-reminder>' },
    ])
  })
})
