import { useState } from 'react'
import { api } from '../../api'
import { openView } from '../../lib/open-dialog'
import type { TurnMemory } from './reducer'

/**
 * What memory did around a turn, under the reply: the memories recalled for the prompt, and
 * those saved from it afterwards (each can be undone here; the memory browser shows them all).
 */
export function MemoryLine({ memory }: { memory: TurnMemory }) {
  const [undone, setUndone] = useState<Record<string, string>>({})
  const undo = async (changeId: string) => {
    const result = await api.invoke('memory.undo', { changeId })
    setUndone((state) => ({ ...state, [changeId]: result.ok ? 'Undone' : `Not undone: ${result.error.message}` }))
  }
  const names = (list: TurnMemory['recalled']) => list.map((item) => item.name).join(', ')
  return (
    <div className="memory-line" aria-label="Memory">
      {memory.recalled.length > 0 && <p>Recalled from memory: {names(memory.recalled)}</p>}
      {memory.late.length > 0 && <p className="memory-line__quiet">Recall picked {names(memory.late)} too late for this turn.</p>}
      {memory.written.map((entry) => (
        <p key={`${entry.memory.scope}/${entry.memory.file}/${entry.changeId ?? entry.change}`}>
          {entry.change === 'proposed' ? 'Proposed for memory' : entry.change === 'created' ? 'Saved to memory' : 'Memory updated'}: {entry.memory.name} ({entry.memoryType}){' '}
          {entry.changeId &&
            (undone[entry.changeId] ? (
              <span role="status">{undone[entry.changeId]}</span>
            ) : (
              <button type="button" className="button button--small" onClick={() => void undo(entry.changeId!)}>
                Undo
              </button>
            ))}
        </p>
      ))}
      <button type="button" className="button button--small button--quiet" onClick={() => openView('memory')}>
        Open memory
      </button>
    </div>
  )
}
