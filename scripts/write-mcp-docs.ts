// Rewrites the generated tool list of docs/mcp.md from the contract and the MCP decisions (`npm run docs:mcp`);
// main/mcp/tool-docs.test.ts fails while the page is not current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withToolsSection } from '../main/mcp/tool-docs';

const page = fileURLToPath(new URL('../docs/mcp.md', import.meta.url));
const before = readFileSync(page, 'utf8');
const after = withToolsSection(before);
if (after === before) console.log('docs/mcp.md: tool list is current');
else {
  writeFileSync(page, after);
  console.log('docs/mcp.md: tool list rewritten');
}
