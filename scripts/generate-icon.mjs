#!/usr/bin/env node
// Draws assets/icon.png (512×512): three connected nodes on a rounded indigo square.
// Rasterised here with distance functions so the icon needs no design tool; run again after changes.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const S = 512;
const px = Buffer.alloc(S * S * 4);
const nodes = [
  [150, 170],
  [362, 256],
  [150, 342],
];
const edges = [
  [0, 1],
  [2, 1],
];

const clamp = (v) => Math.max(0, Math.min(1, v));
function segDist(x, y, [ax, ay], [bx, by]) {
  const t = clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}
function roundRectDist(x, y) {
  const r = 96,
    h = S / 2 - 16;
  const qx = Math.abs(x - S / 2) - (h - r),
    qy = Math.abs(y - S / 2) - (h - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
for (let y = 0; y < S; y++) {
  for (let x = 0; x < S; x++) {
    const i = (y * S + x) * 4;
    const inside = clamp(0.5 - roundRectDist(x + 0.5, y + 0.5));
    const t = (x + y) / (2 * S);
    let [r, g, b] = [79 + 40 * t, 70 - 20 * t, 229 - 40 * t];
    const line = Math.min(...edges.map(([a, c]) => segDist(x, y, nodes[a], nodes[c])));
    const lineCover = clamp(14 - line);
    const nodeCover = Math.max(...nodes.map(([nx, ny]) => clamp(52 - Math.hypot(x - nx, y - ny))));
    const ring = Math.max(...nodes.map(([nx, ny]) => clamp(34 - Math.hypot(x - nx, y - ny))));
    const white = Math.max(lineCover * 0.85, nodeCover);
    [r, g, b] = [r + (255 - r) * white, g + (255 - g) * white, b + (255 - b) * white];
    [r, g, b] = [r + (34 - r) * ring * 0.9, g + (197 - g) * ring * 0.9, b + (94 - b) * ring * 0.9];
    px[i] = r;
    px[i + 1] = g;
    px[i + 2] = b;
    px[i + 3] = Math.round(255 * inside);
  }
}
const raw = Buffer.alloc(S * (S * 4 + 1));
for (let y = 0; y < S; y++) px.copy(raw, y * (S * 4 + 1) + 1, y * S * 4, (y + 1) * S * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc(body));
  return Buffer.concat([len, body, sum]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(S, 0);
ihdr.writeUInt32BE(S, 4);
ihdr[8] = 8;
ihdr[9] = 6;
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../assets/icon.png', import.meta.url), png);
console.log(`assets/icon.png: ${png.length} bytes`);
