export * from './money.ts';
export * from './stakes.ts';
export * from './tables.ts';
export * from './unit.ts';
export * from './evaluate.ts';
