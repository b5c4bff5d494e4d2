import { useTheme } from './theme-store';
import { THEME_CHOICES } from './ThemeMenu';

/** The theme switch as a row of choices (the Settings screen); the same store and choices as the app bar's menu. */
export function ThemeChoices() {
  const choice = useTheme((s) => s.choice);
  const setChoice = useTheme((s) => s.setChoice);
  return (
    <div className="theme-choices" role="radiogroup" aria-label="Theme" data-testid="settings-theme">
      {THEME_CHOICES.map(({ choice: value, label, icon: Icon }) => (
        <label key={value} className="theme-choice" data-checked={choice === value}>
          <input type="radio" name="theme" value={value} checked={choice === value} onChange={() => setChoice(value)} data-testid={`settings-theme-${value}`} />
          <Icon size={14} aria-hidden="true" /> {label}
        </label>
      ))}
    </div>
  );
}
