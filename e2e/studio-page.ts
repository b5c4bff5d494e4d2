import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The studio as the specs see it: only `data-testid`s (never CSS classes), so a restyle does not break
 * the journeys.
 */
export class StudioPage {
  constructor(readonly page: Page) {}

  async openNew(): Promise<void> {
    await this.page.goto('/#/');
    await expect(this.page.getByTestId('palette-item-API_TRIGGER')).toBeVisible();
  }

  canvas(): Locator {
    return this.page.getByTestId('canvas');
  }

  node(id: string): Locator {
    return this.page.getByTestId(`node-${id}`);
  }

  /** Drags a palette item onto the canvas at a point relative to the canvas' top-left corner (HTML5 drag). */
  async dropNode(type: string, at: { x: number; y: number }, expectedId: string): Promise<void> {
    await this.page.getByTestId(`palette-item-${type}`).dragTo(this.canvas(), { targetPosition: at });
    await expect(this.node(expectedId)).toBeVisible();
  }

  /** Connects two nodes by dragging with the mouse from a source handle to a target handle. */
  async connect(source: string, target: string, port = 'out'): Promise<void> {
    const from = await this.centreOf(this.page.getByTestId(`handle-${source}-source-${port}`));
    const to = await this.centreOf(this.page.getByTestId(`handle-${target}-target`));
    const mouse = this.page.mouse;
    await mouse.move(from.x, from.y);
    await mouse.down();
    // Several steps so React Flow sees a real drag and snaps to the target handle.
    await mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
    await mouse.move(to.x, to.y, { steps: 5 });
    await mouse.up();
  }

  edges(): Locator {
    return this.page.locator('.react-flow__edge');
  }

  /** A canvas edge (React Flow names it `rf__edge-<id>`; a straight edge has no height, so assert attached). */
  edge(source: string, target: string, port = 'out'): Locator {
    return this.page.getByTestId(`rf__edge-${source}:${port}->${target}`);
  }

  async setWorkflowId(id: string): Promise<void> {
    await this.page.getByTestId('workflow-id-input').fill(id);
  }

  async save(): Promise<void> {
    await this.page.getByTestId('save-button').click();
  }

  private async centreOf(locator: Locator): Promise<{ x: number; y: number }> {
    await expect(locator).toBeVisible();
    const box = await locator.boundingBox();
    if (!box) throw new Error('element has no bounding box');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }
}
