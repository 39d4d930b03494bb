import { uuidV7 } from '../../common/uuidV7.ts';

/**
 * A fresh playId for one « Jouer » press (kept across its retries): time-ordered, so the
 * server's unique index on playId grows at its end. The server accepts any UUID; only this
 * client's ids are ordered. The time in the id is the press's, which the play shows anyway.
 */
export const newPlayId = (): string => uuidV7();
