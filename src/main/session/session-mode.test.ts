import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/ipc/result'
import type { PermissionModeName } from '../../shared/ipc/contract'
import { createEventHub } from '../base/event-hub'
import type { ModelService } from '../services/model/types'
import { SessionManager } from './session-manager'

let home: string | undefined
afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true })
})

async function manager(setMode?: (mode: PermissionModeName) => void): Promise<SessionManager> {
  home = await mkdtemp(join(tmpdir(), 'sous-session-mode-'))
  const dir = home
  return new SessionManager({
    home: dir,
    open: () => ({
      environment: {
        hub: createEventHub(),
        // No turn runs in these tests, so the model is never asked for.
        model: () => Promise.reject(new Error('not used')) as Promise<ModelService>,
        modelName: 'claude-sonnet-4-6',
        toolset: async () => ({ tools: [] }),
        canUseTool: async () => ({ behavior: 'allow' }),
        maxTurns: 1,
        homeDir: dir,
      },
      ...(setMode ? { setMode } : {}),
    }),
  })
}

describe('SessionManager.setMode', () => {
  it('switches the mode of that session\'s gate', async () => {
    const seen: PermissionModeName[] = []
    const sessions = await manager((mode) => seen.push(mode))
    const { sessionId } = await sessions.create(home!)
    await sessions.setMode(sessionId, 'plan')
    expect(seen).toEqual(['plan'])
    await sessions.dispose()
  })

  it('answers NOT_FOUND for an unknown session and UNAVAILABLE without a gate', async () => {
    const sessions = await manager()
    const unknown = await sessions.setMode('nope', 'plan').catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(AppError)
    expect((unknown as AppError).code).toBe('NOT_FOUND')
    const { sessionId } = await sessions.create(home!)
    expect(((await sessions.setMode(sessionId, 'plan').catch((e: unknown) => e)) as AppError).code).toBe('UNAVAILABLE')
    await sessions.dispose()
  })
})
