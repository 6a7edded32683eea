import type { SessionGrants } from '../governance/decide/session'
import { SessionMemory, type SessionMemoryHost, type SessionMemoryPort } from '../memory/agents/session-memory'
import { SMALL_FAST_MODEL } from '../services/model/ask'
import type { ModelService } from '../services/model/types'
import { unattended } from './options'
import type { RuntimeParts } from './shared'

/**
 * A session's memory (its prompt section, recall beside each turn, extraction after it) on the
 * runtime's shared memory service: what `SessionEnvironment.memory` builds once the Session exists.
 */
export function sessionMemory(
  parts: RuntimeParts,
  session: { grants: SessionGrants; model(): Promise<ModelService> },
): (host: SessionMemoryHost) => SessionMemoryPort {
  return (host) =>
    new SessionMemory(host, {
      service: parts.memory,
      model: session.model,
      // An empty field in Settings means the default.
      recallModel: () => parts.memory.preferences().recallModel?.trim() || SMALL_FAST_MODEL,
      // `sous -p` reads memory; writing it is left to interactive sessions.
      extract: !unattended(parts.options),
      // Memories are read on demand (the index says where); reading them never asks.
      allowRead: (folders) => {
        for (const folder of folders) session.grants.add(`Read(/${escapeGlob(folder)}/**)`)
      },
    })
}

/** A folder path as a literal in a permission rule's glob. */
function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, (character) => `\\${character}`)
}
