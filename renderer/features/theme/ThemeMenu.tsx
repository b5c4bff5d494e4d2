import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { keepKeysInside } from '../../components/Dialog';
import { effectiveTheme, useTheme, type ThemeChoice } from './theme-store';

/** The three choices, with the label and icon both theme switches show. */
export const THEME_CHOICES: ReadonlyArray<{ choice: ThemeChoice; label: string; icon: typeof Sun }> = [
  { choice: 'system', label: 'System', icon: Monitor },
  { choice: 'light', label: 'Light', icon: Sun },
  { choice: 'dark', label: 'Dark', icon: Moon },
];

/** The theme switch in the app bar (a Radix menu): system, light or dark. */
export function ThemeMenu() {
  const choice = useTheme((s) => s.choice);
  const shown = useTheme((s) => effectiveTheme(s.choice, s.system));
  const setChoice = useTheme((s) => s.setChoice);
  const Icon = shown === 'dark' ? Moon : Sun;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="icon-button" aria-label={`Theme: ${choice}`} title={`Theme: ${choice}`} data-testid="theme-button">
          <Icon size={15} aria-hidden="true" />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu compact" align="end" sideOffset={4} onKeyDown={keepKeysInside} data-testid="theme-menu">
          <DropdownMenu.RadioGroup value={choice} onValueChange={(v) => setChoice(v as ThemeChoice)}>
            {THEME_CHOICES.map(({ choice: value, label, icon: ItemIcon }) => (
              <DropdownMenu.RadioItem key={value} value={value} className="menu-item row" data-testid={`theme-${value}`}>
                <ItemIcon size={13} aria-hidden="true" />
                <span className="menu-item-label">{label}</span>
                <DropdownMenu.ItemIndicator className="menu-item-check">
                  <Check size={13} aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
