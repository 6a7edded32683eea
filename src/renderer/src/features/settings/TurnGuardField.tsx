import { DEFAULT_TURN_GUARD } from '../../../../shared/ipc/preferences'

/** How many model requests a turn makes before it asks whether to go on (`sous -p` has no limit). */
export function TurnGuardField({ value, onChange }: { value: number | undefined; onChange(value: number | undefined): void }) {
  return (
    <label className="settings__field">
      <span>Ask to continue after this many model requests in one turn</span>
      <input
        className="field"
        type="number"
        min={10}
        max={100000}
        placeholder={String(DEFAULT_TURN_GUARD)}
        value={value ?? ''}
        onChange={(event) => {
          const number = Number(event.target.value)
          onChange(event.target.value === '' || !Number.isFinite(number) ? undefined : Math.min(100_000, Math.max(10, Math.round(number))))
        }}
      />
    </label>
  )
}
