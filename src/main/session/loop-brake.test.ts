import { describe, expect, it } from 'vitest'
import type { AssistantBlock } from '../services/model/types'
import { DEFAULT_LOOP_BRAKE } from './guard-settings'
import { LoopBrake } from './loop-brake'

const call = (input: unknown): AssistantBlock => ({ type: 'tool_use', id: `toolu_${Math.random()}`, name: 'Bash', input })
const text = (value: string): AssistantBlock => ({ type: 'text', text: value })

describe('the loop brake', () => {
  it('trips on the Nth identical call in a row, whatever the order of the input keys', () => {
    const brake = new LoopBrake({ ...DEFAULT_LOOP_BRAKE, repeatedCalls: 3 })
    expect(brake.observe([call({ command: 'ls', timeout: 5 })])).toBeUndefined()
    expect(brake.observe([call({ timeout: 5, command: 'ls' })])).toBeUndefined()
    expect(brake.observe([call({ command: 'ls', timeout: 5 })])).toContain('same Bash call with the same input 3 times in a row')
  })

  it('a different call in between starts the count again', () => {
    const brake = new LoopBrake({ ...DEFAULT_LOOP_BRAKE, repeatedCalls: 3 })
    brake.observe([call({ command: 'npm test' })])
    brake.observe([call({ command: 'npm test' })])
    expect(brake.observe([call({ command: 'git diff' })])).toBeUndefined()
    expect(brake.observe([call({ command: 'npm test' })])).toBeUndefined()
  })

  it('trips after K replies that bring no new call and no new text; new text resets it', () => {
    const brake = new LoopBrake({ enabled: true, repeatedCalls: 99, idleRequests: 3 })
    brake.observe([text('Checking.'), call({ command: 'a' })])
    brake.observe([call({ command: 'b' })])
    expect(brake.observe([call({ command: 'a' })])).toBeUndefined() // 1: seen before
    expect(brake.observe([text('Checking.'), call({ command: 'b' })])).toBeUndefined() // 2
    expect(brake.observe([call({ command: 'a' })])).toContain('3 model requests in a row brought no new tool call and no new text')
    brake.reset()
    expect(brake.observe([text('Something new.')])).toBeUndefined()
  })

  it('does nothing when switched off', () => {
    const brake = new LoopBrake({ ...DEFAULT_LOOP_BRAKE, enabled: false, repeatedCalls: 1 })
    expect(brake.observe([call({ command: 'ls' })])).toBeUndefined()
  })
})
