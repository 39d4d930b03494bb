export * from './contract.ts';
export * from './keyring.ts';
export * from './signature.ts';
export * from './client.ts';
