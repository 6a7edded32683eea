import type { MemoryFolderInfo } from '../../../../shared/ipc/contract'
import { useMemory } from './store'

const SOURCE = {
  claude: "Claude Code's auto-memory folder (shared with Claude Code)",
  autoMemoryDirectory: 'autoMemoryDirectory in your Claude Code settings',
  sous: 'under $SOUS_HOME (Sous only)',
} as const

/** The memory part of the system prompt as a new session gets it, and each index against its limits. */
export function IndexView() {
  const prompt = useMemory((state) => state.prompt)
  const folders = useMemory((state) => state.folders)
  const enabled = useMemory((state) => state.promptEnabled)
  return (
    <section className="memory-index" aria-label="Index as the model sees it">
      <div className="memory-index__sizes">
        {folders.map((folder) => (
          <IndexSize key={folder.scope} folder={folder} />
        ))}
      </div>
      <p className="memory-index__note" role="note">
        {enabled
          ? 'The model gets this in every new session; single memories are read on demand or attached when recall picks them.'
          : 'Memory is off in Settings: sessions get none of this until it is turned back on.'}
      </p>
      <pre className="memory-index__text" tabIndex={0} aria-label="Memory section of the system prompt">
        {prompt ?? 'Loading…'}
      </pre>
    </section>
  )
}

function IndexSize({ folder }: { folder: MemoryFolderInfo }) {
  const { index } = folder
  const label = folder.scope === 'user' ? 'User memory index' : 'Project memory index'
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`
  return (
    <div className="memory-index__size">
      <h3>{label}</h3>
      <p className="memory-index__dir" title={SOURCE[folder.source]}>
        {folder.dir} — {SOURCE[folder.source]}
      </p>
      <label>
        <meter min={0} max={index.maxLines} high={index.maxLines * 0.9} value={index.lines} aria-label={`${label}: lines`} /> {index.lines} of {index.maxLines} lines
      </label>
      <label>
        <meter min={0} max={index.maxBytes} high={index.maxBytes * 0.9} value={index.bytes} aria-label={`${label}: size`} /> {kb(index.bytes)} of {kb(index.maxBytes)}
      </label>
      {index.omitted > 0 && (
        <p className="memory-index__over" role="note">
          {index.omitted} {index.omitted === 1 ? 'memory is' : 'memories are'} left out of the index (the newest {index.listed} are listed).
        </p>
      )}
    </div>
  )
}
