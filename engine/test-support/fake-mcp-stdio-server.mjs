// A fake MCP server over stdio for tests, built with the SDK's own server classes: `node fake-mcp-stdio-server.mjs`.
// Tools: add {a, b} → the sum (text and structuredContent), echo {text}, fail (isError), whoami (the MCP_USER env value),
// hang (never answers). With MCP_PID_FILE set, the process writes its pid there first.
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fake-stdio', version: '1.0.0' });
server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
  structuredContent: { sum: a + b },
}));
server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
server.registerTool('fail', { description: 'Always fails' }, () => ({ content: [{ type: 'text', text: 'the tool broke' }], isError: true }));
server.registerTool('whoami', { description: 'Reads MCP_USER' }, () => ({ content: [{ type: 'text', text: process.env.MCP_USER ?? '(unset)' }] }));
server.registerTool('hang', { description: 'Never answers' }, () => new Promise(() => {}));
if (process.env.MCP_PID_FILE) writeFileSync(process.env.MCP_PID_FILE, String(process.pid));
await server.connect(new StdioServerTransport());
