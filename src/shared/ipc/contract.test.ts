import { describe, expect, it } from 'vitest'
import { agentsRequests } from './agents'
import { appRequests } from './app'
import { approvalEvents, approvalRequests } from './approval'
import { checkpointsRequests } from './checkpoints'
import { contextRequests } from './context'
import { events, requests } from './contract'
import { extensionsEvents, extensionsRequests } from './extensions'
import { filesRequests } from './files'
import { memoryEvents, memoryRequests } from './memory'
import { projectEvents, projectRequests } from './project'
import { ptyEvents, ptyRequests } from './pty'
import { sessionEvents, sessionRequests } from './session'
import { settingsRequests } from './settings'
import { trustRequests } from './trust'
import { tasksRequests } from './tasks'
import { planRequests } from './plan'
import { remoteEvents, remoteRequests } from './remote'
import { worktreesRequests } from './worktrees'
import { parallelEvents, parallelRequests } from './parallel'

const requestDomains = [agentsRequests, appRequests, projectRequests, ptyRequests, sessionRequests, approvalRequests, settingsRequests, filesRequests, trustRequests, extensionsRequests, tasksRequests, planRequests, contextRequests, memoryRequests, checkpointsRequests, remoteRequests, worktreesRequests, parallelRequests]
const eventDomains = [ptyEvents, sessionEvents, approvalEvents, projectEvents, extensionsEvents, memoryEvents, remoteEvents, parallelEvents]

describe('the contract, merged from one file per domain', () => {
  // A spread silently keeps the last of two equal keys: two domains defining one channel would
  // lose a schema without a compiler error.
  it('no channel is defined by two domains', () => {
    const requestNames = requestDomains.flatMap((domain) => Object.keys(domain))
    const eventNames = eventDomains.flatMap((domain) => Object.keys(domain))
    expect(new Set(requestNames).size).toBe(requestNames.length)
    expect(new Set(eventNames).size).toBe(eventNames.length)
    expect(Object.keys(requests).sort()).toEqual([...requestNames].sort())
    expect(Object.keys(events).sort()).toEqual([...eventNames].sort())
  })

  it('channel names are domain.verb', () => {
    for (const name of [...Object.keys(requests), ...Object.keys(events)]) expect(name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/)
  })
})

describe('permission mode names in the contract', () => {
  it('session.setMode and the preferences read manual as default and accept auto; anything else is refused', () => {
    const input = sessionRequests['session.setMode'].input
    expect(input.parse({ sessionId: 's1', mode: 'manual' })).toEqual({ sessionId: 's1', mode: 'default' })
    expect(input.parse({ sessionId: 's1', mode: 'auto' })).toEqual({ sessionId: 's1', mode: 'auto' })
    expect(input.safeParse({ sessionId: 's1', mode: 'yolo' }).success).toBe(false)
  })
})
