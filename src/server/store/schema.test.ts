import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrations, pendingMigrations, POSTGRES_SCHEMA, SQLITE_SCHEMA } from './schema.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('schema', () => {
  it('keeps each shipped migration’s text, as each database spells it, unchanged', () => {
    // A shipped migration is never edited: a new one is added instead (then add its hash here).
    expect(migrations(SQLITE_SCHEMA).map((m) => [m.version, sha256(m.sql)])).toEqual([
      [1, 'dceacef17212ef8cc9e1d135d1e94e37bdb295ba99faf2bfa870b3a73d9c4e31'],
      [2, 'ac761dc41c2c8a9abc5120e874bd89e725bb5a98e5db496e347f60c936486e2c'],
      [3, 'bf9fd03dac26a4f3fb9bff7478078a3b1b27e9ebc983a524e86e441af8e9c5fb'],
      [4, '3e092f728c2aaa92ca13c89a6e10e15c3947acf74429aeb0bff8d1eeb418a99d'],
      [5, 'aeaf09a3ce01bbf4446819f02b76796f0c123d896acc7af2e6c287b458e0474f'],
      [6, '663f577bb9c765877f7f34bd009fe6f18c50213854f140d5309b0a7949ce0bb8'],
      [7, 'c4b19cd8894b005ef31ea992e8a389d7db68c356e188d4b8d9dbc2ae1f6f1974'],
      [8, '5f35cb4d036c610d13bc1d68b6b11f4a40981972928e78064c1781f518268290'],
    ]);
    expect(migrations(POSTGRES_SCHEMA).map((m) => [m.version, sha256(m.sql)])).toEqual([
      [1, 'f1602335befda781ec6155aa19af2e1acaff0b635ed7a219002792ee98ec806e'],
      [2, 'b5740f2c42b8b146a2c4bf0742c0300e907db6b604fce95f624746aaca8b1742'],
      [3, 'c83f40cc48ec836b9fe7c53fb35a92c61359572248abc6ae88c333ba423ba044'],
      [4, '8443fb4d58823d2cb78a22724dbf408e3a8aea0c9e2d69979f167a0f42beac56'],
      [5, 'aeaf09a3ce01bbf4446819f02b76796f0c123d896acc7af2e6c287b458e0474f'],
      [6, '663f577bb9c765877f7f34bd009fe6f18c50213854f140d5309b0a7949ce0bb8'],
      [7, '61495001ec4385dee41a313655101402119f18bdf054c9a300fa6e09f9b85cd4'],
      [8, '2212ce6c118c62ecd3d5db6100ed46f22a26dfa95e5993f5f6cd80c654a5b024'],
    ]);
  });

  it('spells the same tables in both databases, but for types and booleans', () => {
    const [sqlite] = migrations(SQLITE_SCHEMA);
    const [postgres] = migrations(POSTGRES_SCHEMA);
    const tables = (sql: string) => [...sql.matchAll(/CREATE TABLE (\w+)/g)].map((m) => m[1]);
    expect(tables(sqlite!.sql)).toEqual(['meta', 'players', 'blocks', 'plays', 'entries']);
    expect(tables(postgres!.sql)).toEqual(tables(sqlite!.sql));
    expect(postgres!.sql).toContain('WHERE NOT finished');
    expect(sqlite!.sql).toContain('WHERE finished = 0');
  });

  it('lists the migrations still to apply and refuses a database newer than this server', () => {
    const all = migrations(SQLITE_SCHEMA);
    expect(pendingMigrations(all, new Set())).toEqual(all);
    expect(pendingMigrations(all, new Set([1, 2, 3, 4, 5, 6, 7, 8]))).toEqual([]);
    expect(pendingMigrations(all, new Set([1]))).toEqual(all.slice(1));
    expect(() => pendingMigrations(all, new Set([1, 2, 99]))).toThrow(
      /schema version 99, newer than this server knows/,
    );
  });
});
