import type { SettingsProblem } from '../../../../shared/ipc/contract'

/** The warnings of a saved settings file (valid, but some part will not take effect), one per line. */
export function SettingsWarnings({ warnings }: { warnings: SettingsProblem[] }) {
  if (warnings.length === 0) return null
  return (
    <ul className="settings__warnings" aria-label="Settings warnings">
      {warnings.map((warning) => (
        <li key={`${warning.line}:${warning.column}:${warning.message}`}>
          Line {warning.line}, column {warning.column}: {warning.message}
        </li>
      ))}
    </ul>
  )
}
