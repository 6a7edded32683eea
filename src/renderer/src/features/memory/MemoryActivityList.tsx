import { useMemory } from './store'

const ACTION = { recalled: 'Recalled in', created: 'Written in', updated: 'Updated in' } as const

/** The sessions that recalled or wrote the open memory, newest first; each opens that session. */
export function MemoryActivityList({ onOpenSession }: { onOpenSession(sessionId: string, projectPath: string): void }) {
  const activity = useMemory((state) => state.activity)
  return (
    <section className="memory-activity" aria-label="Sessions that used this memory">
      <h3 className="memory-activity__title">Used in sessions</h3>
      {activity.length === 0 ? (
        <p className="memory-activity__none">No session has recalled or written it yet.</p>
      ) : (
        <ul>
          {activity.map((entry) => (
            <li key={`${entry.sessionId}-${entry.at}-${entry.action}`}>
              <button type="button" className="button button--small button--quiet" onClick={() => onOpenSession(entry.sessionId, entry.projectPath)}>
                {ACTION[entry.action]} “{entry.title ?? entry.sessionId}”
              </button>{' '}
              <time dateTime={new Date(entry.at).toISOString()}>{new Date(entry.at).toLocaleString()}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
