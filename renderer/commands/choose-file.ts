/**
 * Opens the browser's file chooser for a workflow file (Import…). Browsers (and Electron's pages) allow it
 * only during a user's click or key press, which a key shortcut and a button are.
 */
export function chooseWorkflowFile(onFile: (file: File) => void): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.style.display = 'none';
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.remove();
    if (file) onFile(file);
  });
  document.body.appendChild(input);
  input.click();
}
