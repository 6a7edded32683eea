import { useState, type FormEvent } from 'react'
import type { Preferences } from '../../../../shared/ipc/contract'
import { TurnGuardField } from './TurnGuardField'
import { useSettings } from './store'

const MODES: Array<[NonNullable<Preferences['permissionMode']> | '', string]> = [
  ['', 'Manual (ask before changes)'],
  ['acceptEdits', 'Accept edits'],
  ['plan', 'Plan (read-only)'],
  ['dontAsk', "Don't ask (deny what is not allowed)"],
  ['bypassPermissions', 'Bypass permissions'],
]

/**
 * Sous's own preferences: model and connection, the default permission mode, the desktop's turn
 * guard, memory, theme and font size.
 * Edits stay a draft (taken from the stored preferences when the dialog opens) until Save.
 */
export function PreferencesForm() {
  const { preferences, endpoint, error, notice, update } = useSettings()
  const [draft, setDraft] = useState(preferences)

  const save = (event: FormEvent) => {
    event.preventDefault()
    void update({
      baseUrl: draft.baseUrl ?? '',
      model: draft.model ?? '',
      fallbackModel: draft.fallbackModel ?? '',
      ...(draft.permissionMode ? { permissionMode: draft.permissionMode } : {}),
      ...(draft.turnGuard ? { turnGuard: draft.turnGuard } : {}),
      theme: draft.theme,
      fontSize: draft.fontSize,
      autoMemory: draft.autoMemory ?? true,
      memoryWrites: draft.memoryWrites ?? 'undoable',
      memoryLocation: draft.memoryLocation ?? 'claude',
      recallModel: draft.recallModel ?? '',
    })
  }
  const text = (field: 'baseUrl' | 'model' | 'fallbackModel' | 'recallModel', label: string, placeholder: string) => (
    <label className="settings__field">
      <span>{label}</span>
      <input
        className="field"
        value={draft[field] ?? ''}
        placeholder={placeholder}
        spellCheck={false}
        onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      />
    </label>
  )

  return (
    <form onSubmit={save}>
      <fieldset className="settings__group">
        <legend>Model and connection</legend>
        {text('baseUrl', 'Base URL', endpoint?.baseUrl ?? 'https://api.anthropic.com')}
        {text('model', 'Model', endpoint?.model ?? 'default')}
        {endpoint && (
          <p className="settings__hint" data-testid="endpoint-in-use">
            In use: {endpoint.model} at {endpoint.baseUrl}
            {endpoint.baseUrlFrom === 'environment' && ' (from ANTHROPIC_BASE_URL)'}
            {endpoint.modelFrom === 'environment' && ' (model from ANTHROPIC_MODEL)'}
          </p>
        )}
        {text('fallbackModel', 'Fallback model', 'none')}
        <label className="settings__field">
          <span>Default permission mode</span>
          <select
            className="field"
            value={draft.permissionMode ?? ''}
            onChange={(event) =>
              setDraft({ ...draft, permissionMode: (event.target.value || undefined) as Preferences['permissionMode'] })
            }
          >
            {MODES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <TurnGuardField value={draft.turnGuard} onChange={(turnGuard) => setDraft({ ...draft, turnGuard })} />
      </fieldset>
      <fieldset className="settings__group">
        <legend>Memory</legend>
        <label className="settings__field settings__field--check">
          <input type="checkbox" checked={draft.autoMemory ?? true} onChange={(event) => setDraft({ ...draft, autoMemory: event.target.checked })} />
          <span>Recall memories for each prompt and save new ones after each turn</span>
        </label>
        <label className="settings__field">
          <span>Memories the agent writes</span>
          <select className="field" value={draft.memoryWrites ?? 'undoable'} onChange={(event) => setDraft({ ...draft, memoryWrites: event.target.value as Preferences['memoryWrites'] })}>
            <option value="undoable">Save project memories at once, with undo (user memories, which every project sees, always wait for approval)</option>
            <option value="approve">Wait for my approval in the memory browser</option>
          </select>
        </label>
        <label className="settings__field">
          <span>Project memories live in</span>
          <select className="field" value={draft.memoryLocation ?? 'claude'} onChange={(event) => setDraft({ ...draft, memoryLocation: event.target.value as Preferences['memoryLocation'] })}>
            <option value="claude">Claude Code&apos;s auto-memory folder (shared with Claude Code)</option>
            <option value="sous">Sous&apos;s own folder, under $SOUS_HOME</option>
          </select>
        </label>
        {text('recallModel', 'Recall model', 'claude-haiku-4-5')}
      </fieldset>
      <fieldset className="settings__group">
        <legend>Appearance</legend>
        <label className="settings__field">
          <span>Theme</span>
          <select
            className="field"
            value={draft.theme}
            onChange={(event) => setDraft({ ...draft, theme: event.target.value as Preferences['theme'] })}
          >
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label className="settings__field">
          <span>Font size</span>
          <input
            className="field"
            type="number"
            min={9}
            max={32}
            value={draft.fontSize}
            onChange={(event) => setDraft({ ...draft, fontSize: Math.min(32, Math.max(9, Number(event.target.value) || 13)) })}
          />
        </label>
      </fieldset>
      <div className="settings__row">
        <button type="submit" className="button button--primary">
          Save settings
        </button>
        <span role="status" className="status">
          {notice}
        </span>
      </div>
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
