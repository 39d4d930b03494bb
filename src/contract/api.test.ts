import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as before from '../rules/api.ts';
import { ERROR_CODES as RULES_ERROR_CODES } from '../rules/api.ts';
import type * as contract from './api.ts';
import { ERROR_CODES } from './errorCodes.ts';

/**
 * While the client still imports src/rules/api.ts, the contract's derived types must be
 * exactly the hand-written ones there, so that switching an import changes nothing.
 * (Checked by the type checker: `npm run typecheck`.)
 */
describe('the contract keeps the API types', () => {
  it('derives exactly the types of src/rules/api.ts', () => {
    expectTypeOf<contract.ErrorCode>().toEqualTypeOf<before.ErrorCode>();
    expectTypeOf<contract.ApiError>().toEqualTypeOf<before.ApiError>();
    expectTypeOf<contract.SessionResponse>().toEqualTypeOf<before.SessionResponse>();
    expectTypeOf<contract.PlayWheel>().toEqualTypeOf<before.PlayWheel>();
    expectTypeOf<contract.Launched>().toEqualTypeOf<before.Launched>();
    expectTypeOf<contract.Play>().toEqualTypeOf<before.Play>();
    expectTypeOf<contract.StakeOffer>().toEqualTypeOf<before.StakeOffer>();
    expectTypeOf<contract.SalesWindow>().toEqualTypeOf<before.SalesWindow>();
    expectTypeOf<contract.AccountResponse>().toEqualTypeOf<before.AccountResponse>();
    expectTypeOf<contract.PlayResponse>().toEqualTypeOf<before.PlayResponse>();
    expectTypeOf<contract.PlaysPage>().toEqualTypeOf<before.PlaysPage>();
    expectTypeOf<contract.ClientConfigResponse>().toEqualTypeOf<before.ClientConfigResponse>();
  });

  it('lists the same error codes, in the same order', () => {
    expect(ERROR_CODES).toEqual(RULES_ERROR_CODES);
  });
});
