export * from './contract.ts';
export * from './signature.ts';
export * from './client.ts';
