export type { Migration } from '../../migration';
