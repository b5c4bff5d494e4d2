import { Copy } from 'lucide-react';
import { useState } from 'react';

/** Copies text to the clipboard and says whether it worked (a browser may refuse: then the user copies by hand). */
export function CopyButton({
  text,
  testId,
  title,
  className = 'button tiny',
  size = 11,
}: {
  text: () => string;
  testId: string;
  title: string;
  className?: string;
  size?: number;
}) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <button type="button" className={className} onClick={() => void copy()} data-testid={testId} title={title}>
      <Copy size={size} aria-hidden="true" /> {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy refused' : 'Copy'}
    </button>
  );
}
