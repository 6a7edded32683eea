import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { delayBetween, MAX_GAP_MS, mergeStreams, MIN_DELAY_MS, playbackStop, stepBack, stepForward, stepPositions, TICK_MS } from './replay'

const main = { sessionId: 's', agentId: 'main' }
const sub = { sessionId: 's', agentId: 'a1', parentToolUseId: 'c1' }

const mainEvents: AgentEvent[] = [
  { ...main, type: 'turn_start', turnId: 't1', prompt: 'go' },
  { ...main, type: 'request_start', model: 'm', attempt: 1 },
  { ...main, type: 'tool_use_start', toolUseId: 'c1', name: 'Agent' },
  { ...main, type: 'tool_state', toolUseId: 'c1', name: 'Agent', state: 'running', input: { prompt: 'x' } },
  { ...main, type: 'tool_end', toolUseId: 'c1', name: 'Agent', isError: false, content: 'ok' },
  { ...main, type: 'assistant_message', text: 'Done.', stopReason: 'end_turn' },
  { ...main, type: 'turn_end', reason: 'completed' },
]
const subEvents: AgentEvent[] = [
  { ...sub, type: 'agent_start', parentAgentId: 'main', agentType: 'Explore', description: 'look', prompt: 'x', model: 'm', background: false, at: 1500 },
  { ...sub, type: 'assistant_message', text: 'Seen.', stopReason: 'end_turn' },
]

describe('replay', () => {
  it('merges the subagents’ events into the main agent’s by recorded time (main first on a tie)', () => {
    const recording = mergeStreams({ events: mainEvents, times: [1000, 1000, 1100, 1200, 3000, 3100, 3200] }, [{ events: subEvents, times: [1500, 2000] }])
    expect(recording.events.map((event) => `${event.agentId}:${event.type}`)).toEqual([
      'main:turn_start', 'main:request_start', 'main:tool_use_start', 'main:tool_state', 'a1:agent_start', 'a1:assistant_message', 'main:tool_end', 'main:assistant_message', 'main:turn_end',
    ])
    expect(recording.times).toEqual([1000, 1000, 1100, 1200, 1500, 2000, 3000, 3100, 3200])
  })

  it('places a stream without times by its agent_start and the time before', () => {
    const recording = mergeStreams({ events: mainEvents, times: [1000, 1000, 1100, 1200, 3000, 3100, 3200] }, [{ events: subEvents }])
    expect(recording.times.slice(4, 6)).toEqual([1500, 1500])
  })

  it('steps to what a person sees: the prompt, a call with its input, a call ending, a reply, the end', () => {
    const steps = stepPositions(mainEvents)
    expect(steps).toEqual([1, 4, 5, 6, 7])
    expect(stepForward(steps, 0)).toBe(1)
    expect(stepForward(steps, 1)).toBe(4)
    expect(stepForward(steps, 7)).toBe(7)
    expect(stepBack(steps, 4)).toBe(1)
    expect(stepBack(steps, 1)).toBe(0)
    expect(stepBack(steps, 0)).toBe(0)
    expect(stepPositions([])).toEqual([])
  })

  it('waits the recorded gap divided by the speed, a long pause cut to 2 s, never under 16 ms', () => {
    const times = [0, 1000, 1400, 60_000]
    expect(delayBetween(times, 1, 2, 1)).toBe(1000)
    expect(delayBetween(times, 1, 2, 10)).toBe(100)
    expect(delayBetween(times, 2, 3, 20)).toBe(20)
    expect(delayBetween(times, 3, 4, 1)).toBe(MAX_GAP_MS)
    expect(delayBetween(times, 3, 4, 20)).toBe(MAX_GAP_MS / 20)
    expect(delayBetween(times, 1, 1, 1)).toBe(MIN_DELAY_MS)
  })

  it('plays steps recorded within one tick of each other together, and a slow step alone', () => {
    // Steps at positions 1–6; events 1–4 come 10 ms apart, then a 1 s pause.
    const steps = [1, 2, 3, 4, 5, 6]
    const times = [0, 10, 20, 30, 1030, 1040]
    expect(playbackStop(steps, times, 1, 1)).toEqual({ position: 4, wait: 30 })
    expect(playbackStop(steps, times, 4, 1)).toEqual({ position: 5, wait: 1000 })
    expect(playbackStop(steps, times, 4, 20)).toEqual({ position: 5, wait: 50 })
    expect(playbackStop(steps, times, 1, 20)).toEqual({ position: 4, wait: MIN_DELAY_MS })
    expect(playbackStop(steps, times, 6, 1)).toEqual({ position: 6, wait: MIN_DELAY_MS })
    expect(TICK_MS).toBe(50)
  })
})
