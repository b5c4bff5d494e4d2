import { expect, test, type Locator, type Page } from '@playwright/test';
import { openWorkflow, seedWorkflow, uniqueId } from './debug-helpers';
import { StudioPage } from './studio-page';

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function viewport(page: Page): Promise<string> {
  return page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
}

// Issue 15 item 2: drops land where released, at any zoom, in every workflow; the view never re-fits by itself.
test('item 2: in a new workflow opened after another, each drop lands under the pointer, also zoomed in, and the view stays put', async ({ page, request }) => {
  const studio = new StudioPage(page);
  const first = uniqueId('i15-first');
  await seedWorkflow(request, first, [
    { nodeId: 'a', type: 'API_TRIGGER' },
    { nodeId: 'b', type: 'CONSOLE_TERMINAL' },
  ]);
  await openWorkflow(page, first, 'a');
  await page.getByTestId('workflow-picker').selectOption({ label: 'New workflow' });
  await expect(page.getByTestId('canvas-empty')).toBeVisible();

  const canvas = await studio.canvas().boundingBox();
  if (!canvas) throw new Error('no canvas');
  const before = await viewport(page);
  await studio.dropNode('API_TRIGGER', { x: 200, y: 200 }, 'api_trigger_1');
  const dropped = await centre(studio.node('api_trigger_1'));
  expect(Math.abs(dropped.x - (canvas.x + 200))).toBeLessThan(30);
  expect(Math.abs(dropped.y - (canvas.y + 200))).toBeLessThan(30);
  expect(await viewport(page)).toBe(before);

  // Zoomed in, the next drop lands where it is released too.
  await page.locator('.react-flow__controls-zoomin').click();
  await page.locator('.react-flow__controls-zoomin').click();
  const zoomed = await viewport(page);
  expect(zoomed).not.toBe(before);
  await studio.dropNode('TRANSFORM', { x: 480, y: 330 }, 'transform_1');
  const second = await centre(studio.node('transform_1'));
  expect(Math.abs(second.x - (canvas.x + 480))).toBeLessThan(40);
  expect(Math.abs(second.y - (canvas.y + 330))).toBeLessThan(40);
  expect(await viewport(page)).toBe(zoomed);
});

// Issue 15 item 3: auto-layout fits the view afterwards, clear of the toolbar and panels, undoable as one step.
test('item 3: auto-layout lays out and fits every node in view, clear of the toolbar and the minimap; one Ctrl+Z puts all back', async ({ page, request }) => {
  const studio = new StudioPage(page);
  const workflowId = uniqueId('i15-layout');
  const ids = ['t', 'p1', 'p2', 'p3', 'p4', 'p5', 'out'];
  await seedWorkflow(request, workflowId, [
    { nodeId: 't', type: 'API_TRIGGER' },
    ...['p1', 'p2', 'p3', 'p4', 'p5'].map((nodeId) => ({ nodeId, type: 'TRANSFORM' })),
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 't');

  await page.getByTestId('auto-layout-button').click();
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
  const canvas = (await studio.canvas().boundingBox())!;
  const toolbar = (await page.getByTestId('canvas-toolbar').boundingBox())!;
  const minimap = (await page.locator('.react-flow__minimap').boundingBox())!;
  await expect(async () => {
    for (const id of ids) {
      const box = (await studio.node(id).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(canvas.x);
      expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(box.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
      expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height);
      const underMinimap = box.x + box.width > minimap.x && box.y + box.height > minimap.y;
      expect(underMinimap).toBe(false);
    }
  }).toPass();

  // One undo step puts every node back where it was saved: the graph equals the saved one again (clean).
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await expect(page.getByTestId('unsaved-dot')).toHaveCount(0);
});
