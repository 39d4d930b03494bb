import type { ErrorCode } from '../../contract/api.ts';

/** What the player is told when the wallet refuses a bet or a balance, or does not answer. */
export interface WalletRefusal {
  code: Extract<
    ErrorCode,
    'INSUFFICIENT_BALANCE' | 'LIMIT_REACHED' | 'PLAYER_BLOCKED' | 'NO_SESSION' | 'WALLET_UNAVAILABLE'
  >;
  message: string;
}

export const WALLET_UNAVAILABLE: WalletRefusal = {
  code: 'WALLET_UNAVAILABLE',
  message: 'the operator’s wallet did not answer: nothing was debited or sold; try again',
};

/**
 * A refusal of the wallet (its `status`) as the API says it. Statuses that name no fault
 * of the player (a bet the game itself rolled back, a request id or signature problem)
 * read as the service being unavailable: nothing was debited.
 */
export function refusalOf(status: string): WalletRefusal {
  switch (status) {
    case 'INSUFFICIENT_FUNDS':
      return { code: 'INSUFFICIENT_BALANCE', message: 'insufficient funds in your operator account for this stake' };
    case 'LIMIT_REACHED':
      return { code: 'LIMIT_REACHED', message: 'a play limit of your operator account is reached' };
    case 'PLAYER_BLOCKED':
      return { code: 'PLAYER_BLOCKED', message: 'your operator account is blocked' };
    case 'UNKNOWN_PLAYER':
      return { code: 'NO_SESSION', message: 'the operator’s wallet does not know this player' };
    default:
      return WALLET_UNAVAILABLE;
  }
}
