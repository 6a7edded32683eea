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

describe('reminder sources', () => {
  it('are asked once per drain, after the queued news; a throw counts as nothing; they can be removed', () => {
    const queue = new ReminderQueue()
    let drains = 0
    const remove = queue.addSource({ source: 'every other', due: () => (++drains % 2 === 0 ? [`due at ${drains}`, ''] : []) })
    queue.addSource({ source: 'broken', due: () => { throw new Error('bug') } })
    queue.push('news', { source: 'a' })
    expect(queue.drain().map((r) => [r.source, r.text])).toEqual([['a', 'news']])
    expect(queue.drain().map((r) => [r.source, r.text])).toEqual([['every other', 'due at 2']])
    remove()
    expect(queue.drain()).toEqual([])
    expect(drains).toBe(2)
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
